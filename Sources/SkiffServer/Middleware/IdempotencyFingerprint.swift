import Foundation
import SkiffCore

/// The request hash an Idempotency-Key is held to: a keyed hash of the request in a canonical form that keeps
/// no secret. The JSON body is decoded and written back with sorted keys, so spacing and key order do not
/// matter; a card number is replaced by its card fingerprint, and the CVC and the password are left out.
enum IdempotencyFingerprint {
    /// Body fields left out of the hash entirely: nothing derived from them is kept.
    static let omittedFields: Set<String> = ["cvc", "password"]
    /// Body fields replaced by their keyed card fingerprint, the one the card service stores.
    static let cardNumberFields: Set<String> = ["number"]

    /// The hash of `method` `path` with `body`, keyed by `key`.
    static func hash(method: String, path: String, body: [UInt8], key: ServerKey) -> String {
        key.mac("idempotency", Data("\(method) \(path)\n".utf8) + canonicalBody(body, key: key))
    }

    /// `body` decoded as JSON, secrets dropped or fingerprinted, encoded with sorted keys. A body that is not
    /// JSON is never processed (decoding refuses it), so it is represented by a marker, never by its bytes.
    static func canonicalBody(_ body: [UInt8], key: ServerKey) -> Data {
        guard !body.isEmpty else { return Data() }
        guard let decoded = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
            return Data("not-json".utf8)
        }
        let canonical: Any
        if let object = decoded as? [String: Any] {
            var fields = object.filter { !omittedFields.contains($0.key) }
            for name in cardNumberFields {
                guard let number = fields[name] as? String else { continue }
                fields[name] = ["cardFingerprint": key.cardFingerprint((try? CardNumber.digitsOnly(number)) ?? number)]
            }
            canonical = fields
        } else {
            canonical = decoded
        }
        return (try? JSONSerialization.data(withJSONObject: canonical, options: [.sortedKeys, .fragmentsAllowed]))
            ?? Data("not-json".utf8)
    }
}
