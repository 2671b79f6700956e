import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try Caller.required()
        guard let overview = try await repositories.accounts.overview(id: caller.userID) else { throw Problem.unauthorized }
        let user = overview.user
        return .ok(.init(body: .json(.init(
            user: user.api,
            balance: .init(amountMinor: user.balanceMinor, currency: user.currency),
            unreadNotifications: overview.unreadNotifications
        ))))
    }

    func listTransactions(_ input: Operations.ListTransactions.Input) async throws -> Operations.ListTransactions.Output {
        let caller = try Caller.required()
        var errors: [Problem.FieldError] = []
        let limit = Int(input.query.limit ?? 50)
        if !(1...200).contains(limit) { errors.append(.init(field: "limit", message: "Ask for 1 to 200 transactions.")) }
        if let raw = input.query.query, raw.unicodeScalars.count > 100 {
            errors.append(.init(field: "query", message: "Search for at most 100 characters."))
        }
        if let raw = input.query.cursor, raw.unicodeScalars.count > 200 {
            errors.append(.init(field: "cursor", message: "Use the nextCursor of the previous page."))
        }
        guard errors.isEmpty else { throw Problem.validation(errors) }
        var cursor: TransactionCursor?
        if let raw = input.query.cursor {
            cursor = TransactionCursor(encoded: raw)
            // A cursor the server did not issue: the contract allows any string, so the refusal is 422.
            if cursor == nil { throw Problem.unprocessable([.init(field: "cursor", message: "Use the nextCursor of the previous page.")]) }
        }
        let query = input.query.query?.trimmingCharacters(in: .whitespaces)

        let rows = try await repositories.transactions.page(userID: caller.userID, after: cursor, query: query, limit: limit + 1)
        // A short query searched the newest transactions only: said when there are more than those.
        var searchLimit: Int32?
        if let query, !query.isEmpty, TransactionSearch.isShort(query) {
            let window = TransactionSearch.shortQueryWindow
            if try await repositories.transactions.count(userID: caller.userID, upTo: window + 1) > window {
                searchLimit = Int32(window)
            }
        }
        let items = rows.prefix(limit)
        let nextCursor = rows.count > limit ? items.last.map {
            TransactionCursor(createdAt: $0.createdAt.millisecondsSince1970, id: $0.id).encoded
        } : nil
        return .ok(.init(body: .json(.init(
            items: items.map {
                .init(
                    id: String($0.id), amountMinor: $0.amountMinor, currency: $0.currency, merchant: $0.merchant,
                    category: $0.category, createdAt: $0.createdAt, transferId: $0.transferID, note: $0.note,
                    reference: $0.reference
                )
            },
            nextCursor: nextCursor,
            searchLimit: searchLimit
        ))))
    }

    func listNotifications(_ input: Operations.ListNotifications.Input) async throws -> Operations.ListNotifications.Output {
        let caller = try Caller.required()
        let notifications = try await repositories.notifications.notifications(userID: caller.userID, limit: 200)
        return .ok(.init(body: .json(notifications.map {
            .init(id: $0.id, title: $0.title, body: $0.body, createdAt: $0.createdAt, read: $0.readAt != nil)
        })))
    }

    func markNotificationRead(_ input: Operations.MarkNotificationRead.Input) async throws -> Operations.MarkNotificationRead.Output {
        let caller = try Caller.required()
        guard try await repositories.notifications.markRead(id: input.path.id, userID: caller.userID, at: clock.now()) else {
            throw Problem.notFound
        }
        return .noContent(.init())
    }
}
