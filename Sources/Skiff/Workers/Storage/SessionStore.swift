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
