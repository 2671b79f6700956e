import Foundation
import SkiffCore

/// Everything Home shows, as last seen from the server.
struct HomeSnapshot: Hashable, Sendable, Codable {
    var summary: AccountSummary
    var cards: [Card]
    var transactions: [Transaction]
    var nextCursor: String?
    /// For a search too short for the server's index: how many of the newest transactions it searched.
    var searchLimit: Int?

    init(summary: AccountSummary, cards: [Card], transactions: [Transaction], nextCursor: String?, searchLimit: Int? = nil) {
        self.summary = summary
        self.cards = cards
        self.transactions = transactions
        self.nextCursor = nextCursor
        self.searchLimit = searchLimit
    }
}

/// A snapshot and when it was taken.
struct CachedHome: Hashable, Sendable {
    var snapshot: HomeSnapshot
    var savedAt: Date

    init(snapshot: HomeSnapshot, savedAt: Date) {
        self.snapshot = snapshot
        self.savedAt = savedAt
    }
}
