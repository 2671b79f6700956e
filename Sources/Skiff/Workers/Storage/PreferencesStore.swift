import Foundation
import Logging

/// Remembers the last country code and phone number used to log in. Never a password.
struct PreferencesStore: PreferencesStoring {
    private let file: URL
    private let logger: Logger

    init(file: URL, logger: Logger = Logger(label: "skiff.storage")) {
        self.file = file
        self.logger = logger
    }

    /// The last login; an unreadable file is set aside (and logged) and counts as none.
    func lastLogin() -> LastLogin? {
        guard let data = PrivateFile.read(file) else { return nil }
        do {
            return try JSONCoding.decoder.decode(LastLogin.self, from: data)
        } catch {
            let unreadable = UnreadableFile(file: file, setAside: PrivateFile.setAside(file))
            logger.warning("The preferences were unreadable and set aside", metadata: ["file": "\(unreadable)"])
            return nil
        }
    }

    func saveLastLogin(_ login: LastLogin) {
        try? PrivateFile.write(try JSONCoding.encoder.encode(login), to: file)
    }
}
