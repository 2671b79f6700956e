import Foundation
import Hummingbird

/// Refuses, before an operation decodes it, a JSON body that the decoders would read differently or that no text of
/// the API takes (docs/decisions/0120-nul-refused-at-the-boundary.md, 0178-repeated-json-keys-refused.md):
/// - a string, key or value, holding NUL (`\u0000`): 422 naming the field. The database would cut the text there
///   (SQLite) or refuse it (PostgreSQL).
/// - an object naming one key twice: 400 naming the field. The operation's decoder keeps the first value and
///   `JSONSerialization` (the idempotency fingerprint's) the last, so a replay could answer for another request.
/// - a number that is not written as a whole number of 64 bits, in digits: 400 naming the field. Every number the API
///   takes is an integer (`JSONTextMiddlewareTests` reads the contract); Foundation's decoder calls a fraction "not
///   valid JSON", naming nothing, and reads `1e2` and `100.00` as 100, which a client that meant dollars would not
///   want taken as cents.
/// Runs after the per-address bucket, so a refused client costs no body read; the path and query are checked by
/// `RequestTargetMiddleware`. A body that is not JSON at all passes: the operation's decoder answers that.
/// The card network's webhooks (`/v1/webhooks/…`) are not the API's requests: their JSON is the network's, checked by
/// its signature and read for two ids, and a refusal would have the network retry it, then turn the webhook off.
struct JSONTextMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().contains("json") == true,
              !request.uri.path.hasPrefix("/v1/webhooks/")
        else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: CappedBody.maxRequestBody)
        switch body.withUnsafeReadableBytes({ JSONTextCheck.firstFault(in: $0) }) {
        case .nul(let field): throw Problem.nulCharacter(field: field)
        case .repeatedKey(let field): throw Problem.repeatedKey(field: field)
        case .notWholeNumber(let field): throw Problem.notWholeNumber(field: field)
        case nil: return try await next(request, context)
        }
    }
}

/// One pass over a JSON text (no recursion: a body of nested arrays cannot overflow the stack) that finds the first
/// string holding NUL, object naming a key twice or number that is not whole, in text order. Keys are compared as
/// Swift strings, as both decoders' dictionaries compare them (canonically equivalent spellings are one key).
enum JSONTextCheck {
    enum Fault: Equatable, Sendable {
        /// The field (as validation problems name fields: `a.b.[0]`, `body` for the text itself) whose text holds NUL.
        case nul(field: String)
        /// The field named a second time in its object.
        case repeatedKey(field: String)
        /// The field whose number is not plain digits of 64 bits (`100.5`, `100.00`, `1e2`, `1e30`).
        case notWholeNumber(field: String)
    }

    /// The first fault of `bytes` in text order; nil when there is none or when `bytes` is not JSON.
    static func firstFault(in bytes: UnsafeRawBufferPointer) -> Fault? {
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }

    private struct Container {
        /// nil for an array.
        var keys: Set<String>?
        /// Its name in the container holding it (a field name or `[index]`); nil for the text's own value.
        var name: String?
        var count = 0
        /// An object's key whose value comes next.
        var key = ""
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var at = 0
        var stack: [Container] = []

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func run() -> Fault? {
            // Expecting a value.
            while true {
                skipSpace()
                guard at < bytes.count else { return nil }
                switch bytes[at] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[at] == UInt8(ascii: "{")
                    at += 1
                    skipSpace()
                    if at < bytes.count, bytes[at] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        at += 1 // an empty object or array: a value that ended
                    } else {
                        let name = valueName()
                        stack.append(Container(keys: isObject ? [] : nil, name: name))
                        if isObject {
                            switch readKey() {
                            case .fault(let fault): return fault
                            case .invalid: return nil
                            case .next: break
                            }
                        }
                        continue
                    }
                case UInt8(ascii: "\""):
                    guard let text = readString() else { return nil }
                    if text.hasNul { return .nul(field: Self.name(valuePath())) }
                case UInt8(ascii: "t"): guard readLiteral("true") else { return nil }
                case UInt8(ascii: "f"): guard readLiteral("false") else { return nil }
                case UInt8(ascii: "n"): guard readLiteral("null") else { return nil }
                default:
                    guard let whole = readNumber() else { return nil }
                    if !whole { return .notWholeNumber(field: Self.name(valuePath())) }
                }
                // A value ended: close every container that ends here, then go on after a comma.
                while true {
                    skipSpace()
                    guard var top = stack.popLast() else {
                        return nil // the text's one value ended: whatever follows is for the decoder to refuse
                    }
                    guard at < bytes.count else { return nil }
                    let close = top.keys == nil ? UInt8(ascii: "]") : UInt8(ascii: "}")
                    if bytes[at] == close {
                        at += 1
                        continue
                    }
                    guard bytes[at] == UInt8(ascii: ",") else { return nil }
                    at += 1
                    top.count += 1
                    stack.append(top)
                    if top.keys != nil {
                        switch readKey() {
                        case .fault(let fault): return fault
                        case .invalid: return nil
                        case .next: break
                        }
                    }
                    break
                }
            }
        }

        private enum KeyRead { case next, invalid, fault(Fault) }

        /// Reads `"key" :` of the innermost object and records the key.
        private mutating func readKey() -> KeyRead {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let text = readString() else { return .invalid }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return .invalid }
            at += 1
            let last = stack.count - 1
            stack[last].key = text.value
            if text.hasNul { return .fault(.nul(field: Self.name(valuePath()))) }
            if stack[last].keys?.insert(text.value).inserted == false {
                return .fault(.repeatedKey(field: Self.name(valuePath())))
            }
            return .next
        }

        /// The name of the value about to be read in its container: its key or `[index]`; nil for the text's own.
        private func valueName() -> String? {
            guard let top = stack.last else { return nil }
            return top.keys == nil ? "[\(top.count)]" : top.key
        }

        /// The path of the value about to be read (made only for a fault: each container keeps its own name).
        private func valuePath() -> [String] {
            stack.compactMap(\.name) + (valueName().map { [$0] } ?? [])
        }

        /// JSON's four space characters: space, tab, line feed, carriage return.
        private mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        private mutating func readLiteral(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard bytes.count - at >= length else { return false }
            for offset in 0..<length where bytes[at + offset] != word.utf8Start[offset] { return false }
            at += length
            return true
        }

        /// `-? digits (. digits)? ([eE] [+-]? digits)?`, with no leading zero before more digits: nil when it is not
        /// a JSON number, else whether it is plain digits of a whole number of 64 bits (`1000` is; `1e3`, `100.00`,
        /// `100.5` and `1e30` are not).
        private mutating func readNumber() -> Bool? {
            let start = at
            var plain = true
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { return nil }
            if bytes[at] == UInt8(ascii: "0") { at += 1 } else { skipDigits() }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                plain = false
                guard at < bytes.count, isDigit(bytes[at]) else { return nil }
                skipDigits()
            }
            if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
                at += 1
                plain = false
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard at < bytes.count, isDigit(bytes[at]) else { return nil }
                skipDigits()
            }
            guard plain else { return false }
            return Int64(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)) != nil
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private mutating func skipDigits() {
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }

        /// A string from its opening quote: its text (escapes decoded; a lone surrogate as U+FFFD, as the decoders
        /// that take one read it) and whether it holds NUL; nil when it is not a JSON string.
        private mutating func readString() -> (value: String, hasNul: Bool)? {
            at += 1
            let start = at
            var plain = true
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    at += 1
                    return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self), false)
                }
                if byte == UInt8(ascii: "\\") { plain = false; break }
                if byte < 0x20 { return nil }
                at += 1
            }
            guard !plain else { return nil }
            // With escapes: decode the whole string.
            at = start
            var scalars = String.UnicodeScalarView()
            var hasNul = false
            var pending: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll(keepingCapacity: true)
            }
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return (String(scalars), hasNul)
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { return nil }
                    let escaped = bytes[at]
                    at += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): pending.append(escaped)
                    case UInt8(ascii: "b"): pending.append(0x08)
                    case UInt8(ascii: "f"): pending.append(0x0C)
                    case UInt8(ascii: "n"): pending.append(0x0A)
                    case UInt8(ascii: "r"): pending.append(0x0D)
                    case UInt8(ascii: "t"): pending.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let unit = readHex4() else { return nil }
                        flush()
                        var scalar = Unicode.Scalar(unit)
                        if (0xD800...0xDBFF).contains(unit), bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"),
                           bytes[at + 1] == UInt8(ascii: "u") {
                            let mark = at
                            at += 2
                            if let low = readHex4(), (0xDC00...0xDFFF).contains(low) {
                                scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                            } else {
                                at = mark
                            }
                        }
                        if unit == 0 { hasNul = true }
                        scalars.append(scalar ?? "\u{FFFD}")
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    pending.append(byte)
                }
            }
            return nil
        }

        private mutating func readHex4() -> UInt16? {
            guard bytes.count - at >= 4 else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[at]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                at += 1
            }
            return value
        }

        private static func name(_ path: [String]) -> String {
            path.isEmpty ? "body" : path.joined(separator: ".")
        }
    }
}
