/// Turns the bytes a terminal sends into keys.
///
/// Understands UTF-8 text, control keys, CSI and SS3 sequences in normal and application cursor mode,
/// F1–F12, bracketed paste (`ESC [200~ … ESC [201~`), focus reports (`ESC [I`, `ESC [O`) and mouse reports (SGR
/// `ESC [< b;x;y M/m`, mode 1006, and the legacy `ESC [M` and three bytes). Bytes of an incomplete sequence wait for
/// the next `decode` call; a lone Esc waits until the caller decides no more bytes are coming (`flushPending`). A
/// sequence cut short by another Esc or a control byte is dropped and that byte is decoded as usual, so no key
/// after it is lost.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var paste: [UInt8]?

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence (the caller should flush them after a short delay).
    var hasPendingInput: Bool { !pending.isEmpty && paste == nil }

    /// Decodes as many keys as the bytes allow.
    public mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending.append(contentsOf: bytes)
        return process(final: false)
    }

    /// Decodes what is left as if no more bytes will follow: a lone Esc becomes `.escape`.
    mutating func flushPending() -> [Key] {
        process(final: true)
    }

    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private mutating func process(final: Bool) -> [Key] {
        var keys: [Key] = []
        var text: [UInt8] = []
        var i = 0
        let bytes = pending

        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) {
                keys.append(.character(character))
            }
            text.removeAll()
        }

        while i < bytes.count {
            if paste != nil {
                if let end = Self.find(Self.pasteEnd, in: bytes, from: i) {
                    paste?.append(contentsOf: bytes[i..<end])
                    keys.append(.paste(Self.normalizedPaste(paste ?? [])))
                    paste = nil
                    i = end + Self.pasteEnd.count
                    continue
                }
                // Keep a possible partial terminator for the next call.
                let keep = min(Self.pasteEnd.count - 1, bytes.count - i)
                paste?.append(contentsOf: bytes[i..<(bytes.count - keep)])
                pending = Array(bytes[(bytes.count - keep)...])
                return keys
            }
            let byte = bytes[i]
            if byte == 0x1B {
                flushText()
                switch Self.escapeSequence(bytes, at: i) {
                case .incomplete where !final:
                    pending = Array(bytes[i...])
                    return keys
                case .incomplete where Self.isStartedControlSequence(bytes, at: i):
                    // A control sequence cut off for good (half a mouse report): drop it rather than type it.
                    i = bytes.count
                case .incomplete:
                    keys.append(.escape)
                    i += 1
                case .key(let key, let length):
                    if let key { keys.append(key) }
                    i += length
                case .pasteStart(let length):
                    paste = []
                    i += length
                }
                continue
            }
            if byte < 0x20 || byte == 0x7F {
                flushText()
                keys.append(Self.controlKey(byte))
                i += 1
                continue
            }
            let length = Self.utf8Length(byte)
            if i + length > bytes.count {
                if !final {
                    flushText()
                    pending = Array(bytes[i...])
                    return keys
                }
                i = bytes.count
                continue
            }
            text.append(contentsOf: bytes[i..<(i + length)])
            i += length
        }
        flushText()
        pending = []
        return keys
    }

    private enum Sequence {
        case incomplete
        case key(Key?, Int)
        case pasteStart(Int)
    }

    private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> Sequence {
        guard start + 1 < bytes.count else { return .incomplete }
        let introducer = bytes[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            var j = start + 2
            while j < bytes.count, (0x20...0x3F).contains(bytes[j]) {
                j += 1
            }
            guard j < bytes.count else { return .incomplete }
            let final = bytes[j]
            guard (0x40...0x7E).contains(final) else { return .key(nil, j - start) }
            let params = String(decoding: bytes[(start + 2)..<j], as: UTF8.self)
            let length = j - start + 1
            if final == UInt8(ascii: "~") && params == "200" {
                return .pasteStart(length)
            }
            if final == UInt8(ascii: "M") && params.isEmpty {
                guard j + 3 < bytes.count else { return .incomplete }
                let report = MouseEvent.x10((bytes[j + 1], bytes[j + 2], bytes[j + 3]))
                return .key(report.map(Key.mouse), length + 3)
            }
            if params.hasPrefix("<") {
                let isReport = final == UInt8(ascii: "M") || final == UInt8(ascii: "m")
                let report = isReport ? MouseEvent.sgr(parameters: params.dropFirst(), isRelease: final == UInt8(ascii: "m")) : nil
                return .key(report.map(Key.mouse), length)
            }
            return .key(csiKey(final: final, params: params), length)
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.count else { return .incomplete }
            return .key(ss3Key(bytes[start + 2]), 3)
        default:
            return .key(.escape, 1)
        }
    }

    /// Whether the bytes at `start` are `ESC [` and at least one more byte.
    private static func isStartedControlSequence(_ bytes: [UInt8], at start: Int) -> Bool {
        start + 2 < bytes.count && bytes[start + 1] == UInt8(ascii: "[")
    }

    private static func csiKey(final: UInt8, params: String) -> Key? {
        if let key = cursorOrFunctionKey(final) { return key }
        switch final {
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "I") where params.isEmpty: return .focus(true)
        case UInt8(ascii: "O") where params.isEmpty: return .focus(false)
        case UInt8(ascii: "~"):
            // The first parameter's digits (a key's number; modifiers follow a `;`), read as bytes: a key is
            // decoded on every press, and splitting a string cost more than the rest of the decoding.
            var first = 0
            for byte in params.utf8 {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), first < 1_000 else {
                    if byte == UInt8(ascii: ";") { break }
                    return nil
                }
                first = first * 10 + Int(byte - UInt8(ascii: "0"))
            }
            switch first {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return nil
            }
        default:
            return nil
        }
    }

    private static func ss3Key(_ final: UInt8) -> Key? {
        final == UInt8(ascii: "M") ? .enter : cursorOrFunctionKey(final)
    }

    /// The final bytes CSI and SS3 share: the arrows, Home, End and F1-F4.
    private static func cursorOrFunctionKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    private static func controlKey(_ byte: UInt8) -> Key {
        switch byte {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x08, 0x7F: return .backspace
        case 0x00: return .ctrl("@")
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(byte + 0x60)))
        case 0x1C: return .ctrl("\\")
        case 0x1D: return .ctrl("]")
        case 0x1E: return .ctrl("^")
        default: return .ctrl("_")
        }
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: return 4
        case 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        default: return 1
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count - start >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
                return i
            }
            i += 1
        }
        return nil
    }

    private static func normalizedPaste(_ bytes: [UInt8]) -> String {
        var text = ""
        for character in String(decoding: bytes, as: UTF8.self) {
            text.append(character == "\r\n" || character == "\r" ? "\n" : character)
        }
        return text
    }
}
