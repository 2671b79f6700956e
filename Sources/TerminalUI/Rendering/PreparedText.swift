/// Text split once into the graphemes it draws, with their widths: for text drawn on many frames, such as a list's
/// rows, which are prepared when they are made and then only copied into the frame's cells.
struct PreparedText: Hashable, Sendable {
    let text: String
    /// One cell per grapheme drawn (width 1 or 2), in the plain style; the style is the writer's.
    let graphemes: [Cell]
    /// The columns it takes.
    let width: Int

    init(_ text: String) {
        self.text = text
        var graphemes: [Cell] = []
        var width = 0
        for cell in Self.graphemes(of: text) {
            graphemes.append(cell)
            width += cell.width
        }
        self.graphemes = graphemes
        self.width = width
    }

    /// The graphemes of `text` as a frame draws them: a tab as a space; a grapheme of no width (a control, a format
    /// character such as a direction mark) dropped; a grapheme's marks past `maxMarks` dropped, so that text from
    /// elsewhere cannot stack accents over the rows around it.
    static func graphemes<Text: StringProtocol>(of text: Text) -> some Sequence<Cell> {
        text.lazy.compactMap { character -> Cell? in
            let grapheme: Character = character == "\t" ? " " : character
            let width = DisplayWidth.of(grapheme)
            guard width > 0 else { return nil }
            return Cell(text: grapheme.unicodeScalars.count > maxMarks + 1 ? Self.capped(grapheme) : String(grapheme), width: width)
        }
    }

    /// Combining marks one grapheme keeps when drawn: any language's accents, not a tower.
    static let maxMarks = 4

    /// `grapheme` with its combining marks past the first `maxMarks` dropped.
    private static func capped(_ grapheme: Character) -> String {
        var marks = 0
        var kept = String.UnicodeScalarView()
        for scalar in grapheme.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                marks += 1
                if marks <= maxMarks { kept.append(scalar) }
            default:
                kept.append(scalar)
            }
        }
        return String(kept)
    }
}
