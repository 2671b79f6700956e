import Foundation

/// A user's statement: transactions newest first, a page at a time, searched by `TransactionSearch`'s rule.
struct TransactionService: Sendable {
    let transactions: any TransactionRepository

    /// How many transactions a page may hold.
    static let pageSizes = 1...200

    /// One page of transactions, and where the next starts.
    struct Page: Sendable, Equatable {
        var items: [TransactionRecord]
        /// The cursor of the page after this one; nil on the last.
        var nextCursor: String?
        /// How many of the newest transactions a short query was matched against, when there are more than those
        /// (`TransactionSearch.shortQueryWindow`); nil otherwise.
        var searchLimit: Int?
    }

    /// Up to `limit` of the user's transactions after `cursor` (a `nextCursor` this service gave), newest first,
    /// containing `query` (spaces around it ignored). 400 for a limit outside `pageSizes`, a query over 100
    /// characters or a cursor over 200; 422 for a cursor the server did not issue.
    func page(userID: String, limit: Int, query: String?, cursor: String?) async throws -> Page {
        var errors: [Problem.FieldError] = []
        if !Self.pageSizes.contains(limit) { errors.append(.init(field: "limit", message: "Ask for 1 to 200 transactions.")) }
        if let query, query.unicodeScalars.count > 100 {
            errors.append(.init(field: "query", message: "Search for at most 100 characters."))
        }
        if let cursor, cursor.unicodeScalars.count > 200 {
            errors.append(.init(field: "cursor", message: "Use the nextCursor of the previous page."))
        }
        guard errors.isEmpty else { throw Problem.validation(errors) }
        var after: TransactionCursor?
        if let cursor {
            after = TransactionCursor(encoded: cursor)
            // A cursor the server did not issue: the contract allows any string, so the refusal is 422.
            if after == nil { throw Problem.unprocessable([.init(field: "cursor", message: "Use the nextCursor of the previous page.")]) }
        }
        let query = query?.trimmingCharacters(in: .whitespaces)

        let rows = try await transactions.page(userID: userID, after: after, query: query, limit: limit + 1)
        // A short query searched the newest transactions only: said when there are more than those.
        var searchLimit: Int?
        if let query, !query.isEmpty, TransactionSearch.isShort(query) {
            let window = TransactionSearch.shortQueryWindow
            if try await transactions.count(userID: userID, upTo: window + 1) > window {
                searchLimit = window
            }
        }
        let items = Array(rows.prefix(limit))
        let nextCursor = rows.count > limit ? items.last.map {
            TransactionCursor(createdAt: $0.createdAt.millisecondsSince1970, id: $0.id).encoded
        } : nil
        return Page(items: items, nextCursor: nextCursor, searchLimit: searchLimit)
    }
}
