import Foundation
import SkiffCore

/// The signed-in session, kept between runs (`$XDG_STATE_HOME/skiff/session.json`, mode 0600).
protocol SessionStoring: Sendable {
    func load() -> Session?
    func save(_ session: Session) throws
    func clear()
}

/// What the app remembers about the last login: the country code and phone number, never the password.
struct LastLogin: Hashable, Sendable, Codable {
    var countryCode: String
    var phoneNumber: String

    init(countryCode: String, phoneNumber: String) {
        self.countryCode = countryCode
        self.phoneNumber = phoneNumber
    }
}

/// Small settings kept between runs.
protocol PreferencesStoring: Sendable {
    func lastLogin() -> LastLogin?
    func saveLastLogin(_ login: LastLogin)
}

/// Everything Home shows, as last seen from the server.
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

/// The last Home data per user, so Home draws at once and still works offline, read-only.
protocol CacheStoring: Sendable {
    func loadHome(userID: String) -> CachedHome?
    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date)
    func clear()
}

/// Reads one-time codes from the development SMS outbox, so a person can complete flows without a phone.
protocol DevelopmentOutboxReading: Sendable {
    /// The newest code sent to `e164` for `purpose` at or after `since`, if any.
    func latestCode(to e164: String, purpose: CodePurpose, since: Date) -> String?
}
