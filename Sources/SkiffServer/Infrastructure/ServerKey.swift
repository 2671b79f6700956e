import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's secret key: it keys card fingerprints, one-time-code hashes and idempotency request hashes.
struct ServerKey: Sendable {
    let key: SymmetricKey

    enum LoadError: Error, CustomStringConvertible {
        case malformedConfiguredKey
        case malformedKeyFile(String)
        case unreadableKeyFile(String)
        case unreadableGeneratedKey(String)
        case keyFileOpenToOthers(String, mode: mode_t)
        case twoKeysGiven
        case sharedKeyRequired

        var description: String {
            switch self {
            case .malformedConfiguredKey:
                "SKIFF_FINGERPRINT_KEY must be base64 of at least 32 bytes."
            case .malformedKeyFile(let path):
                "The key file \(path) must hold base64 of at least 32 bytes and nothing else "
                    + "(e.g. `openssl rand -base64 32 > \(path)`)."
            case .unreadableKeyFile(let path):
                "The key file \(path) cannot be read."
            case .unreadableGeneratedKey(let path):
                "The key file \(path) is not a 32-byte key."
            case .keyFileOpenToOthers(let path, let mode):
                OwnerOnlyFile.Refusal.openToOthers("The key file", path: path, mode: mode).description
            case .twoKeysGiven:
                "Give the server key once: a key file (--key-file) or SKIFF_FINGERPRINT_KEY, not both."
            case .sharedKeyRequired:
                "A PostgreSQL database is shared by every server instance, so they must all use the same server key: "
                    + "give it with --key-file PATH or SKIFF_FINGERPRINT_KEY. A key generated here would differ "
                    + "from the other instances' and their card fingerprints, code hashes and idempotency hashes "
                    + "would disagree."
            }
        }
    }

    init(key: SymmetricKey) {
        self.key = key
    }

    /// The key `configuration` names: its key file or `fingerprintKey`; without either, on SQLite only,
    /// `server.key` in its data directory. On PostgreSQL a key must be given.
    static func load(for configuration: SkiffServerConfiguration) throws -> ServerKey {
        switch (configuration.keyFile, configuration.fingerprintKey) {
        case (.some, .some):
            throw LoadError.twoKeysGiven
        case (.some(let path), nil):
            guard let data = try ownerOnlyContents(of: path) else { throw LoadError.unreadableKeyFile(path) }
            guard let text = String(data: data, encoding: .utf8),
                  let key = decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw LoadError.malformedKeyFile(path) }
            return key
        case (nil, .some(let configured)):
            guard let key = decode(configured) else { throw LoadError.malformedConfiguredKey }
            return key
        case (nil, nil):
            guard case .sqlite = configuration.database else { throw LoadError.sharedKeyRequired }
            return try generatedOnce(in: URL(fileURLWithPath: configuration.dataDirectory))
        }
    }

    /// The key in base64 `text` when it holds at least 32 bytes.
    private static func decode(_ text: String) -> ServerKey? {
        guard let data = Data(base64Encoded: text), data.count >= 32 else { return nil }
        return ServerKey(key: SymmetricKey(data: data))
    }

    /// `server.key` in `directory`, created once with 32 random bytes and mode 0600.
    private static func generatedOnce(in directory: URL) throws -> ServerKey {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        let path = directory.appendingPathComponent("server.key").path
        if let data = try ownerOnlyContents(of: path) {
            guard data.count == 32 else { throw LoadError.unreadableGeneratedKey(path) }
            return ServerKey(key: SymmetricKey(data: data))
        }
        let fresh = SymmetricKey(size: .bits256)
        let bytes = fresh.withUnsafeBytes { Array($0) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process created it first: use theirs.
            if errno == EEXIST, let data = try ownerOnlyContents(of: path), data.count == 32 {
                return ServerKey(key: SymmetricKey(data: data))
            }
            throw LoadError.unreadableGeneratedKey(path)
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw LoadError.unreadableGeneratedKey(path) }
        return ServerKey(key: fresh)
    }

    /// The contents of the file at `path`, or nil when it cannot be opened; refuses a file that group or others
    /// may read or write. The mode is taken from the open file, so it is the file that is then read.
    private static func ownerOnlyContents(of path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        guard !OwnerOnlyFile.isOpenToOthers(status.st_mode) else { throw LoadError.keyFileOpenToOthers(path, mode: status.st_mode) }
        return try? handle.readToEnd() ?? Data()
    }

    /// HMAC-SHA256 of `text` under the key, as lowercase hex, with `domain` separating the uses.
    func mac(_ domain: String, _ text: String) -> String {
        mac(domain, Data(text.utf8))
    }

    func mac(_ domain: String, _ data: Data) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data((domain + "\u{0}").utf8))
        hmac.update(data: data)
        return hmac.finalize().hexString
    }

    /// The keyed fingerprint of a card number, for refusing duplicates without keeping the number.
    func cardFingerprint(_ digits: String) -> String { mac("card-number", digits) }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hex, two digits each. Written out by hand: `String(format:)` per byte cost more than
    /// the SHA-256 it printed, on every authenticated request.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
