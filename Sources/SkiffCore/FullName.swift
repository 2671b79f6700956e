/// A person's full name as given at registration.
public enum FullName {
    public static let maxLength = 100

    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooLong
        case controlCharacters

        public var message: String {
            switch self {
            case .empty: "Enter your full name."
            case .tooLong: "Use at most \(FullName.maxLength) characters."
            case .controlCharacters: SharedText.refusalMessage(for: "A name")
            }
        }
    }

    /// Checks the name is at most `maxLength` code points as sent (the unit of the server's contract), holds
    /// nothing `SharedText` refuses (others see it), and is more than spaces; returns it trimmed.
    public static func validate(_ raw: String) throws(Problem) -> String {
        guard raw.unicodeScalars.count <= maxLength else { throw .tooLong }
        guard SharedText.refusal(in: raw) == nil else { throw .controlCharacters }
        let name = raw.trimmingSpaces()
        guard !name.isEmpty else { throw .empty }
        return name
    }
}

extension Unicode.Scalar {
    /// U+0000–U+001F and U+007F: never part of a name.
    var isControlCharacter: Bool { value < 0x20 || value == 0x7F }
}
