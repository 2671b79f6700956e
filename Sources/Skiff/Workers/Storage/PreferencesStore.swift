import Foundation

/// Remembers the last country code and phone number used to log in, and whether Home's Spending panel is
/// hidden. Never a password.
struct PreferencesStore: PreferencesStoring {
    private let file: URL

    init(file: URL) {
        self.file = file
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

    private func read() -> StoredPreferences {
        guard let data = PrivateFile.read(file) else { return StoredPreferences() }
        return (try? JSONCoding.decoder.decode(StoredPreferences.self, from: data)) ?? StoredPreferences()
    }

    private func write(_ preferences: StoredPreferences) {
        try? PrivateFile.write(try JSONCoding.encoder.encode(preferences), to: file)
    }
}

/// The preferences file: the last login's fields at the top level, as the first versions wrote them, beside the
/// Spending panel's state.
private struct StoredPreferences: Codable {
    var lastLogin: LastLogin?
    var hidesSpending: Bool?

    init() {}

    private enum CodingKeys: String, CodingKey { case hidesSpending }

    init(from decoder: any Decoder) throws {
        lastLogin = try? LastLogin(from: decoder)
        hidesSpending = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .hidesSpending)
    }

    func encode(to encoder: any Encoder) throws {
        try lastLogin?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(hidesSpending, forKey: .hidesSpending)
    }
}
