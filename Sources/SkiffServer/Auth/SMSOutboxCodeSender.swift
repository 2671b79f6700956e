import Foundation
import SkiffCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends one line per message (`OutgoingCode.outboxLine()`, the format SkiffCore states) to a file, creating it
/// (mode 0600) and its directory when needed. A development channel: the codes sit there in clear, so the file
/// must be a regular file only its owner may read or write (`OwnerOnlyFile`), and a symbolic link is refused, not
/// followed. Off loopback a server uses it only when asked (`SkiffServerConfiguration.allowsSMSOutboxOffLoopback`).
struct SMSOutboxCodeSender: CodeSender {
    public let path: String

    init(path: String) {
        self.path = path
    }

    /// How the outbox is named in a refusal.
    static let what = "The SMS outbox"

    /// Checks an existing outbox file at start, so that a widened mode or a link stops the server rather than
    /// failing the first code it sends.
    func checkFile() throws {
        try OwnerOnlyFile.checkExisting(path, flags: O_WRONLY | O_APPEND, Self.what, followingLinks: false)
    }

    public func send(_ message: OutgoingCode) async throws {
        let line = try message.outboxLine()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        guard let descriptor = try OwnerOnlyFile.openChecked(
            path, flags: O_WRONLY | O_CREAT | O_APPEND, Self.what, followingLinks: false
        ) else { throw CocoaError(.fileWriteNoPermission) }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Reads every message in an outbox file, oldest first (for development tools and tests).
    public static func messages(at path: String) -> [OutgoingCode] {
        FileManager.default.contents(atPath: path).map(OutgoingCode.outboxMessages(in:)) ?? []
    }
}
