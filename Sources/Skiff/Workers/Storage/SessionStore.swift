import Foundation
import SkiffCore

/// Keeps the session in one JSON file readable only by its owner (mode 0600).
struct SessionStore: SessionStoring {
    private let file: URL

    init(file: URL) {
        self.file = file
    }

    func load() -> Session? {
        guard let data = PrivateFile.read(file) else { return nil }
        return try? JSONCoding.decoder.decode(Session.self, from: data)
    }

    func save(_ session: Session) throws {
        try PrivateFile.write(try JSONCoding.encoder.encode(session), to: file)
    }

    func clear() {
        PrivateFile.remove(file)
    }
}

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

/// The JSON settings every store uses: ISO 8601 dates, sorted keys.
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
