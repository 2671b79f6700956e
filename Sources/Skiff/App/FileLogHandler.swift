import Foundation
import Logging
import Synchronization

/// A swift-log handler that appends lines to one file (mode 0600), so nothing the app or its embedded server
/// logs ever reaches the terminal.
public struct FileLogHandler: LogHandler {
    /// One open file shared by every logger of the process.
    public final class Sink: Sendable {
        private let descriptor: Mutex<Int32>

        /// Opens (or creates) `file` for appending; its folder is made private to the user (`PrivateFolder`).
        public init(file: URL) throws {
            try PrivateFolder.prepare(file.deletingLastPathComponent())
            let fd = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path]) }
            descriptor = Mutex(fd)
        }

        func write(_ line: String) {
            var bytes = Array(line.utf8)
            bytes.append(0x0A)
            descriptor.withLock { fd in
                _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            }
        }

        deinit {
            descriptor.withLock { fd in _ = close(fd) }
        }
    }

    private let label: String
    private let sink: Sink
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    public init(label: String, sink: Sink, level: Logger.Level = .info) {
        self.label = label
        self.sink = sink
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.write("\(Self.timestamp(Date())) \(event.level) \(label): \(event.message)\(fields)")
    }

    /// `date` in UTC to the second, as `Date.ISO8601FormatStyle` writes it (`2026-11-25T13:10:00Z`). Made by hand:
    /// the format style's first use instantiated enough generic types to be 6 % of the app's CPU before its first
    /// frame (`perf`), and the app logs before that frame.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let two: (Int32) -> String = Formatting.twoDigits
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
