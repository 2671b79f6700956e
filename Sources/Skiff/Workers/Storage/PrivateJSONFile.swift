import Foundation
import Logging

/// One value kept as JSON in a file only its owner can read (`PrivateFile`): what a run killed mid-write left is
/// removed on opening, and a file that cannot be decoded is set aside and logged, never silently reused.
struct PrivateJSONFile<Value: Codable>: Sendable {
    private let file: URL
    private let logger: Logger
    /// What the log says when the file cannot be read.
    private let unreadableWarning: String

    init(file: URL, unreadableWarning: String, logger: Logger) {
        self.file = file
        self.unreadableWarning = unreadableWarning
        self.logger = logger
        PrivateFile.removeLeftovers(of: file)
    }

    /// The stored value, nil when there is none; an unreadable file is set aside and reported.
    func read() throws(UnreadableFile) -> Value? {
        guard let data = PrivateFile.read(file) else { return nil }
        do {
            return try JSONCoding.decoder.decode(Value.self, from: data)
        } catch {
            let unreadable = UnreadableFile(file: file, setAside: PrivateFile.setAside(file))
            logger.warning("\(unreadableWarning)", metadata: ["file": "\(unreadable)"])
            throw unreadable
        }
    }

    func write(_ value: Value) throws {
        try PrivateFile.write(try JSONCoding.encoder.encode(value), to: file)
    }

    func remove() {
        PrivateFile.remove(file)
    }
}
