import Foundation
import Logging
import SkiffCore

/// Keeps the session in one JSON file readable only by its owner (mode 0600).
struct SessionStore: SessionStoring {
    private let stored: PrivateJSONFile<Session>

    /// Removes what a run killed mid-write left of the file (`PrivateFile.removeLeftovers`).
    init(file: URL, logger: Logger = Logger(label: "skiff.storage")) {
        stored = PrivateJSONFile(file: file, unreadableWarning: "The saved session was unreadable and set aside; Login shows", logger: logger)
    }

    func load() throws(UnreadableFile) -> Session? {
        try stored.read()
    }

    func save(_ session: Session) throws {
        try stored.write(session)
    }

    func clear() {
        stored.remove()
    }
}
