/// Display width in terminal columns of graphemes and strings.
///
/// ASCII and most scripts take one column, East Asian wide and fullwidth characters and emoji take two
/// (including ZWJ sequences, skin-tone modifiers, flags and text made emoji by VS16), and combining marks,
/// controls and format characters take none.
public enum DisplayWidth {
    /// The number of columns a grapheme cluster occupies.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii < 0x20 || ascii == 0x7F ? 0 : 1
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1, let width = commonWidth(first.value) {
            return width
        }
        if first.properties.isEmojiPresentation {
            return 2
        }
        if scalars.count > 1, first.properties.isEmoji {
            for scalar in scalars.dropFirst()
            where scalar.value == 0xFE0F || scalar.value == 0x200D || scalar.value == 0x20E3
                || scalar.properties.isEmojiModifier {
                return 2
            }
        }
        return width(of: first)
    }

    /// The number of columns a string occupies.
    public static func of<S: StringProtocol>(_ string: S) -> Int {
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return string.utf8.count
        }
        if string.unicodeScalars.allSatisfy(isSingleColumnGrapheme) {
            return string.unicodeScalars.count
        }
        var total = 0
        for character in string {
            total += of(character)
        }
        return total
    }

    /// The width of one scalar taken on its own.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) {
            return 0
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if value >= 0x1160 && value <= 0x11FF {
            return 0  // Hangul medial vowels and final consonants join the leading consonant.
        }
        if scalar.properties.isEmojiPresentation || isWide(value) {
            return 2
        }
        return 1
    }

    /// Whether `scalar` is, in any text made only of such scalars, a grapheme of its own one column wide: printable
    /// ASCII and the frequent scalars of `commonWidth` (Latin-1, punctuation, arrows, box drawing, braille). None of
    /// them extends the scalar before it or joins the one after, so such text needs no grapheme breaking.
    static func isSingleColumnGrapheme(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value >= 0x20 && value < 0x7F) || commonWidth(value) == 1
    }

    /// Widths of frequent single scalars (Latin-1, punctuation, arrows, box drawing, braille) known without
    /// a Unicode property lookup; nil for anything else.
    private static func commonWidth(_ value: UInt32) -> Int? {
        switch value {
        case 0xA0...0x2FF where value != 0xAD: return 1
        case 0x2010...0x2027, 0x2030...0x205E: return 1
        case 0x2190...0x21FF: return 1
        case 0x2500...0x25FC: return 1
        case 0x2800...0x28FF: return 1
        default: return nil
        }
    }

    /// East Asian Wide and Fullwidth ranges that are not emoji.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        for range in wideRanges where range.contains(value) {
            return true
        }
        return false
    }
}

extension String {
    /// The number of terminal columns this string occupies.
    var displayWidth: Int { DisplayWidth.of(self) }

    /// The longest prefix that fits in `width` columns, ending in `ellipsis` when something was cut.
    public func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if displayWidth <= width { return self }
        let room = width - ellipsis.displayWidth
        guard room >= 0 else { return String(ellipsis.prefixFitting(width: width)) }
        return String(prefixFitting(width: room)) + ellipsis
    }

    /// The longest prefix that fits in `width` columns.
    func prefixFitting(width: Int) -> Substring {
        var used = 0
        var end = startIndex
        for index in indices {
            let w = DisplayWidth.of(self[index])
            if used + w > width { break }
            used += w
            end = self.index(after: index)
        }
        return self[startIndex..<end]
    }

    /// Splits the text into lines of at most `width` columns, breaking at spaces where it can.
    public func wrapped(toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = String(word)
                var wordWidth = word.displayWidth
                if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let head = String(word.prefixFitting(width: width))
                    guard !head.isEmpty else { break }
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                    wordWidth = word.displayWidth
                }
                line = word
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }
}
