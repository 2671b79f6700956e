/// The one rule for text a person types that other people see: names (a full name, a card's holder name) and a
/// transfer's note. It reaches other users' notifications, statements and live events, inside other text, so it may
/// not hide, break or turn what is around it. The server refuses such text; the wallet checks it as it is typed and,
/// for text that is already stored, its terminal kit draws no control or format character anyway.
///
/// Refused: control characters (C0, DEL, C1); line and paragraph separators (U+2028, U+2029); the marks that turn or
/// isolate the text's direction (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C); invisible characters
/// (U+200B, U+2060–U+2064, U+FEFF, U+180E, U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0); a zero-width joiner
/// (U+200D) anywhere but between two emoji (🧑‍💻), a zero-width non-joiner (U+200C) anywhere but between two letters
/// (Persian's می‌خواهم), tag characters (U+E0001, U+E0020–U+E007F) anywhere but in a flag after U+1F3F4; and more than
/// `maxCombiningMarks` combining marks on one character (stacks that spill over the lines around them).
public enum SharedText {
    /// Combining marks one character may carry: enough for any language's accents (Vietnamese stacks two, some
    /// scripts three), not for text that climbs out of its line.
    public static let maxCombiningMarks = 4

    /// Why text was refused.
    public enum Refusal: Hashable, Sendable {
        case controlCharacter
        case lineSeparator
        case directionMark
        case invisibleCharacter
        case tooManyMarks
    }

    /// The first reason `text` is refused, nil when it is not.
    public static func refusal(in text: String) -> Refusal? {
        let scalars = Array(text.unicodeScalars)
        var marks = 0
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            switch value {
            case 0x00...0x1F, 0x7F...0x9F: return .controlCharacter
            case 0x2028, 0x2029: return .lineSeparator
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return .directionMark
            case 0x200B, 0x2060...0x2064, 0xFEFF, 0x180E, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0: return .invisibleCharacter
            case 0x200D:
                guard index > 0, index + 1 < scalars.count, endsEmoji(scalars[..<index]), isEmoji(scalars[index + 1])
                else { return .invisibleCharacter }
            case 0x200C:
                guard index > 0, index + 1 < scalars.count, scalars[index - 1].properties.isAlphabetic,
                      scalars[index + 1].properties.isAlphabetic
                else { return .invisibleCharacter }
            case 0xE0001, 0xE0020...0xE007F:
                guard inFlag(scalars[..<index]) else { return .invisibleCharacter }
            default:
                break
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                // Variation selectors choose a glyph; they stack nothing.
                if !(0xFE00...0xFE0F).contains(value) { marks += 1 }
                if marks > maxCombiningMarks { return .tooManyMarks }
            default:
                marks = 0
            }
        }
        return nil
    }

    /// An emoji other than the keycap bases (digits, `#`, `*`), which `isEmoji` counts too.
    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0xFF && scalar.properties.isEmoji
    }

    /// Whether `scalars` end with an emoji, maybe followed by its variation selector or skin tone.
    private static func endsEmoji(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        var rest = scalars
        while let last = rest.last, last.value == 0xFE0F || last.properties.isEmojiModifier { rest = rest.dropLast() }
        return rest.last.map(isEmoji) ?? false
    }

    /// Whether `scalars` end inside a tag sequence begun by the black flag (U+1F3F4): 🏴 and its tags so far.
    private static func inFlag(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        var rest = scalars
        while let last = rest.last, (0xE0020...0xE007E).contains(last.value) { rest = rest.dropLast() }
        return rest.last?.value == 0x1F3F4
    }
}

extension SharedText {
    /// What a person is told when `what` ("A name", "A note") holds what the rule refuses.
    public static func refusalMessage(for what: String) -> String {
        "\(what) holds no control characters, line breaks, text-direction marks, hidden characters or stacked accents."
    }
}
