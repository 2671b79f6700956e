import Foundation

/// Remembers the last country code and phone number used to log in. Never a password.
struct PreferencesStore: PreferencesStoring {
    private let file: URL

    init(file: URL) {
        self.file = file
    }

    func lastLogin() -> LastLogin? {
        guard let data = PrivateFile.read(file) else { return nil }
        return try? JSONCoding.decoder.decode(LastLogin.self, from: data)
    }

    func saveLastLogin(_ login: LastLogin) {
        try? PrivateFile.write(try JSONCoding.encoder.encode(login), to: file)
    }
}
