import Foundation
import Logging
import Synchronization

/// One JSON object a line on standard error (`skiff-server --log-format json`), for a log collector:
/// `{"level","label","message","request_id"?,"time", …metadata}`, keys sorted, metadata values as text. The request id
/// is the task's `RequestLogID.current`, so a service's line written while a request runs names its request.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// Writes to standard error, one line at a time.
    public init(label: String) {
        self.init(label: label, write: JSONLogHandler.standardError)
    }

    /// Writes each line (without its newline) to `write`: tests read them there.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { fields[key] = "\(value)" }
        fields["time"] = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        if let id = RequestLogID.current { fields["request_id"] = id }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self))
    }

    private static let lock = Mutex(())

    /// One whole line per call, never interleaved with another thread's.
    private static let standardError: @Sendable (String) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
