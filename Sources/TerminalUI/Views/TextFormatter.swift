/// Groups what the user types for display, such as `1234 5678` or `12/28`.
///
/// The field keeps the raw text; the formatter only inserts separators between groups when more text
/// follows, so the cursor sits where the user expects while typing and deleting.
public struct TextFormatter: Sendable {
    /// The group lengths for a raw text (the last group absorbs anything beyond the listed ones).
    var groups: @Sendable (String) -> [Int]
    /// What goes between groups.
    public var separator: String

    public init(separator: String = " ", groups: @escaping @Sendable (String) -> [Int]) {
        self.separator = separator
        self.groups = groups
    }

    /// Fixed group lengths, such as `[2, 2]` with `/` for an expiry date.
    public static func grouping(_ sizes: [Int], separator: String = " ") -> TextFormatter {
        TextFormatter(separator: separator) { _ in sizes }
    }

    /// The raw offsets after which a separator is shown (only where more text follows).
    func boundaries(for raw: String) -> [Int] {
        let count = raw.count
        var result: [Int] = []
        var position = 0
        for size in groups(raw) {
            position += size
            guard position < count else { break }
            result.append(position)
        }
        return result
    }

    /// The text as displayed.
    public func format(_ raw: String) -> String {
        let cuts = Set(boundaries(for: raw))
        var output = ""
        for (offset, character) in raw.enumerated() {
            if cuts.contains(offset) {
                output += separator
            }
            output.append(character)
        }
        return output
    }
}
