import Foundation
import SkiffCore

/// The signed-in session, kept between runs (`$XDG_STATE_HOME/skiff/session.json`, mode 0600).
protocol SessionStoring: Sendable {
    /// The saved session, nil when there is none; throws when a file was there but unreadable (it is set aside).
    func load() throws(UnreadableFile) -> Session?
    func save(_ session: Session) throws
    func clear()
}

extension SessionStoring {
    /// Marks the saved session locked or not; does nothing without one.
    func setLocked(_ locked: Bool) throws {
        guard var session = try load(), session.isLocked != locked else { return }
        session.isLocked = locked
        try save(session)
    }
}

/// Small settings kept between runs.
protocol PreferencesStoring: Sendable {
    func lastLogin() -> LastLogin?
    func saveLastLogin(_ login: LastLogin)
    /// Whether the person hid Home's Spending panel (`s`); shown until they do.
    func hidesSpending() -> Bool
    func saveHidesSpending(_ hides: Bool)
    /// The numbers the user `userID` last sent money to, newest first (Send money offers them).
    func recentRecipients(userID: String) -> [RecentRecipient]
    func saveRecentRecipients(_ recipients: [RecentRecipient], userID: String)
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
