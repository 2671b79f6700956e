import Foundation
import Logging
import SkiffCore

/// Keeps the session in one JSON file readable only by its owner (mode 0600).
struct SessionStore: SessionStoring {
    private let file: URL
    private let logger: Logger

    /// Removes what a run killed mid-write left of the file (`PrivateFile.removeLeftovers`).
    init(file: URL, logger: Logger = Logger(label: "skiff.storage")) {
        self.file = file
        self.logger = logger
        PrivateFile.removeLeftovers(of: file)
    }

    func load() throws(UnreadableFile) -> Session? {
        guard let data = PrivateFile.read(file) else { return nil }
        do {
            return try JSONCoding.decoder.decode(Session.self, from: data)
        } catch {
            let unreadable = UnreadableFile(file: file, setAside: PrivateFile.setAside(file))
            logger.warning("The saved session was unreadable and set aside; Login shows", metadata: ["file": "\(unreadable)"])
            throw unreadable
        }
    }

    func save(_ session: Session) throws {
        try PrivateFile.write(try JSONCoding.encoder.encode(session), to: file)
    }

    func clear() {
        PrivateFile.remove(file)
    }
}
