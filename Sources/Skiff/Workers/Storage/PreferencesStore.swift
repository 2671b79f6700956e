import Foundation
import Logging

/// Remembers the last country code and phone number used to log in, whether Home's Spending panel is hidden, and
/// for each user the numbers they last sent money to (with the shortened name shown for each). Never a password, an
/// amount or a note.
struct PreferencesStore: PreferencesStoring {
    private let stored: PrivateJSONFile<StoredPreferences>

    /// Removes what a run killed mid-write left of the file (`PrivateFile.removeLeftovers`).
    init(file: URL, logger: Logger = Logger(label: "skiff.storage")) {
        stored = PrivateJSONFile(file: file, unreadableWarning: "The preferences were unreadable and set aside", logger: logger)
    }

    func lastLogin() -> LastLogin? { read().lastLogin }

    func saveLastLogin(_ login: LastLogin) {
        var preferences = read()
        preferences.lastLogin = login
        write(preferences)
    }

    func hidesSpending() -> Bool { read().hidesSpending ?? false }

    func saveHidesSpending(_ hides: Bool) {
        var preferences = read()
        preferences.hidesSpending = hides
        write(preferences)
    }

    func recentRecipients(userID: String) -> [RecentRecipient] { read().recentRecipients?[userID] ?? [] }

    func saveRecentRecipients(_ recipients: [RecentRecipient], userID: String) {
        var preferences = read()
        preferences.recentRecipients = (preferences.recentRecipients ?? [:]).merging([userID: recipients]) { $1 }
        write(preferences)
    }

    /// The stored preferences; an unreadable file is set aside (and logged) and counts as none.
    private func read() -> StoredPreferences {
        (try? stored.read()) ?? StoredPreferences()
    }

    private func write(_ preferences: StoredPreferences) {
        try? stored.write(preferences)
    }
}

/// The preferences file: the last login's fields at the top level, as the first versions wrote them, beside the
/// Spending panel's state and each user's recent recipients (by user id).
private struct StoredPreferences: Codable {
    var lastLogin: LastLogin?
    var hidesSpending: Bool?
    var recentRecipients: [String: [RecentRecipient]]?

    init() {}

    private enum CodingKeys: String, CodingKey { case hidesSpending, recentRecipients }

    /// Unreadable when it is not an object, when `hidesSpending` is not a Boolean or `recentRecipients` not lists of
    /// recipients by user, or when it holds fields but no part can be read from them (every file this app writes
    /// holds at least one part).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hidesSpending = try container.decodeIfPresent(Bool.self, forKey: .hidesSpending)
        recentRecipients = try container.decodeIfPresent([String: [RecentRecipient]].self, forKey: .recentRecipients)
        lastLogin = try? LastLogin(from: decoder)
        if lastLogin == nil, hidesSpending == nil, recentRecipients == nil,
           try !decoder.container(keyedBy: AnyKey.self).allKeys.isEmpty {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No preference could be read."))
        }
    }

    /// Any key, to tell an empty object from one with fields this version cannot read.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        try lastLogin?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(hidesSpending, forKey: .hidesSpending)
        try container.encodeIfPresent(recentRecipients, forKey: .recentRecipients)
    }
}
