import Foundation
import SkiffCore

/// Everything Home shows, as last seen from the server: the first page of the whole list (never a search's).
/// A cache saved with a `searchLimit` (before Home was split into parts) still reads: the key is ignored.
struct HomeSnapshot: Hashable, Sendable, Codable {
    var summary: AccountSummary
    var cards: [Card]
    var transactions: [Transaction]
    var nextCursor: String?

    init(summary: AccountSummary, cards: [Card], transactions: [Transaction], nextCursor: String?) {
        self.summary = summary
        self.cards = cards
        self.transactions = transactions
        self.nextCursor = nextCursor
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
