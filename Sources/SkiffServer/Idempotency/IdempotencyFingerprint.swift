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
        if let plain = PlainObject.canonical(body) { return plain }
        return foundationCanonicalBody(body, key: key)
    }

    /// `canonicalBody` through Foundation's `JSONSerialization`, for any body: what the stored hashes were made with.
    static func foundationCanonicalBody(_ body: [UInt8], key: ServerKey) -> Data {
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

/// The canonical form of the bodies most requests send, written without Foundation: an object of letter-only keys
/// whose values are plain strings, small integers, `true`, `false` or `null`. `JSONSerialization`'s round trip was
/// 14 % of a transfer's CPU outside the writer. Its output is the same bytes as `JSONSerialization` writes (which
/// sorts keys ignoring case, and writes "/" as "\/"); anything else (escapes, "/", other characters, digits in keys,
/// keys equal but for case, nested values, fractions, secret or card fields) answers nil and goes through Foundation.
enum PlainObject {
    static func canonical(_ body: [UInt8]) -> Data? {
        var index = 0
        func skipSpace() {
            while index < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[index]) { index += 1 }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < body.count, body[index] == byte else { return false }
            index += 1
            return true
        }
        /// A string of printable ASCII with no escape and no "/", with its quotes.
        func string() -> ArraySlice<UInt8>? {
            skipSpace()
            guard index < body.count, body[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < body.count, body[index] != UInt8(ascii: "\"") {
                let byte = body[index]
                guard (0x20...0x7E).contains(byte), byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "/") else { return nil }
                index += 1
            }
            guard index < body.count else { return nil }
            index += 1
            return body[start..<index]
        }
        func literal(_ word: String) -> ArraySlice<UInt8>? {
            let bytes = Array(word.utf8)
            guard index + bytes.count <= body.count, body[index..<index + bytes.count].elementsEqual(bytes) else { return nil }
            index += bytes.count
            return body[index - bytes.count..<index]
        }
        /// An integer of at most 15 digits, no leading zero, not "-0": Foundation writes those back as they came.
        func integer() -> ArraySlice<UInt8>? {
            let start = index
            if index < body.count, body[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < body.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(body[index]) { index += 1 }
            let count = index - digits
            guard count > 0, count <= 15, body[digits] != UInt8(ascii: "0") || (count == 1 && digits == start) else {
                return nil
            }
            if index < body.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(body[index]) {
                return nil
            }
            return body[start..<index]
        }
        func value() -> ArraySlice<UInt8>? {
            skipSpace()
            guard index < body.count else { return nil }
            switch body[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return integer()
            }
        }

        guard take(UInt8(ascii: "{")) else { return nil }
        var fields: [(folded: [UInt8], key: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] = []
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = string() else { return nil }
                let name = key.dropFirst().dropLast()
                guard !name.isEmpty, name.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                    return nil
                }
                let text = String(decoding: name, as: UTF8.self)
                guard !IdempotencyFingerprint.omittedFields.contains(text),
                      !IdempotencyFingerprint.cardNumberFields.contains(text),
                      take(UInt8(ascii: ":")), let value = value()
                else { return nil }
                fields.append((name.map { $0 | 0x20 }, key, value))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        guard index == body.count else { return nil }
        fields.sort { $0.folded.lexicographicallyPrecedes($1.folded) }
        for (earlier, later) in zip(fields, fields.dropFirst()) where earlier.folded == later.folded { return nil }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (position, field) in fields.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            out += field.key
            out.append(UInt8(ascii: ":"))
            out += field.value
        }
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }
}
