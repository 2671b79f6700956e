import Foundation
import SkiffCore

struct TransactionRecord: Sendable, Equatable {
    var id: Int64
    var userID: String
    var amountMinor: Int64
    var currency: String
    var merchant: String
    var category: String
    var createdAt: Date
    /// The ledger transfer this line belongs to; nil for the seeded history.
    var transferID: String? = nil
    var note: String? = nil
    var reference: String? = nil
}

/// A transaction about to be inserted; the database assigns its id.
struct NewTransaction: Sendable {
    var amountMinor: Int64
    var currency: String
    var merchant: String
    var category: String
    var createdAt: Date
}

/// Where a page of transactions starts: just after this transaction in newest-first order.
struct TransactionCursor: Sendable, Equatable {
    var createdAt: Int64
    var id: Int64

    /// An opaque, URL-safe form.
    var encoded: String {
        Data("\(createdAt).\(id)".utf8).base64URLEncodedString()
    }

    init(createdAt: Int64, id: Int64) {
        self.createdAt = createdAt
        self.id = id
    }

    init?(encoded: String) {
        guard let data = Data(base64URLEncoded: encoded), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ".")
        guard parts.count == 2, let createdAt = Int64(parts[0]), let id = Int64(parts[1]) else { return nil }
        self.createdAt = createdAt
        self.id = id
    }
}
