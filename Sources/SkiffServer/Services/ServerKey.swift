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
        case unreadableKeyFile(String)

        var description: String {
            switch self {
            case .malformedConfiguredKey: "The configured fingerprint key must be base64 of at least 32 bytes."
            case .unreadableKeyFile(let path): "The key file \(path) is not a 32-byte key."
            }
        }
    }

    init(key: SymmetricKey) {
        self.key = key
    }

    /// The configured key (base64, ≥ 32 bytes) if any; else `server.key` in `directory`, created once with
    /// 32 random bytes and mode 0600.
    static func load(configured: String?, directory: URL) throws -> ServerKey {
        if let configured {
            guard let data = Data(base64Encoded: configured), data.count >= 32 else { throw LoadError.malformedConfiguredKey }
            return ServerKey(key: SymmetricKey(data: data))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("server.key").path
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == 32 else { throw LoadError.unreadableKeyFile(path) }
            return ServerKey(key: SymmetricKey(data: data))
        }
        let fresh = SymmetricKey(size: .bits256)
        let bytes = fresh.withUnsafeBytes { Array($0) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process created it first: use theirs.
            if errno == EEXIST, let data = FileManager.default.contents(atPath: path), data.count == 32 {
                return ServerKey(key: SymmetricKey(data: data))
            }
            throw LoadError.unreadableKeyFile(path)
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw LoadError.unreadableKeyFile(path) }
        return ServerKey(key: fresh)
    }

    /// HMAC-SHA256 of `text` under the key, as lowercase hex, with `domain` separating the uses.
    func mac(_ domain: String, _ text: String) -> String {
        mac(domain, Data(text.utf8))
    }

    func mac(_ domain: String, _ data: Data) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data((domain + "\u{0}").utf8))
        hmac.update(data: data)
        return Data(hmac.finalize()).hexString
    }

    /// The keyed fingerprint of a card number, for refusing duplicates without keeping the number.
    func cardFingerprint(_ digits: String) -> String { mac("card-number", digits) }
}

extension Data {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
