/// The rules of sending money that both the app and the server apply, each written once.
public enum TransferRules {
    /// Transfers above this amount (in USD minor units: $100.00) need a fresh proof of the password (a step-up).
    public static let stepUpAboveMinor: Int64 = 10_000
    /// Top-ups above this amount (in USD minor units: $200.00) are confirmed with a code from the card's issuer.
    public static let topUpChallengeAboveMinor: Int64 = 20_000
    /// The most one transfer may send (in USD minor units: $2,000.00): the server's default limit, which the app says
    /// on the amount before anything is asked.
    public static let transferMaxMinor: Int64 = 200_000
    /// The longest note, in characters as a person counts them.
    public static let noteMaxCharacters = 140

    /// Why an amount or a note cannot be sent.
    public enum Problem: Error, Hashable, Sendable {
        case amountNotPositive
        case noteTooLong
        case noteControlCharacters

        public var message: String {
            switch self {
            case .amountNotPositive: "Enter an amount above zero."
            case .noteTooLong: "Use at most \(TransferRules.noteMaxCharacters) characters."
            case .noteControlCharacters: "A note holds no control characters, line separators or text-direction marks."
            }
        }
    }

    /// True when a top-up of `amountMinor` is confirmed with the issuer's code (the simulated network's rule, and
    /// what the app tells the person before they confirm).
    public static func topUpNeedsCode(amountMinor: Int64) -> Bool { amountMinor > topUpChallengeAboveMinor }

    /// A character no note holds: a control character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029),
    /// or a mark that turns the text's direction (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates).
    /// A note is shown to its payee inside other text, in a notification and a statement line, so it may not break
    /// that line or reverse what follows it.
    public static func refusedInNote(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// True when a transfer of `amountMinor` needs a step-up.
    public static func needsStepUp(amountMinor: Int64) -> Bool { amountMinor > stepUpAboveMinor }

    /// How many characters of `raw` count against `noteMaxCharacters`: those the note keeps once trimmed, as a person
    /// counts them (what `validateNote` measures).
    public static func noteLength(_ raw: String) -> Int { raw.trimmingSpaces().count }

    /// The note trimmed, nil when it is empty; throws for one that is too long or holds a character refused in one
    /// (`refusedInNote`).
    public static func validateNote(_ raw: String?) throws(Problem) -> String? {
        guard let raw else { return nil }
        guard !raw.unicodeScalars.contains(where: refusedInNote) else { throw .noteControlCharacters }
        let note = raw.trimmingSpaces()
        guard noteLength(note) <= noteMaxCharacters else { throw .noteTooLong }
        return note.isEmpty ? nil : note
    }

    /// Throws when the amount is zero or negative.
    public static func validateAmount(_ amountMinor: Int64) throws(Problem) {
        guard amountMinor > 0 else { throw .amountNotPositive }
    }
}

/// A person's name as shown to someone who is not them: the first name and the initial of the last
/// ("Jordan Rivera" → "Jordan R."); a single name as it is.
public enum ShortName {
    public static func of(_ fullName: String) -> String {
        let words = fullName.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return "" }
        guard words.count > 1, let initial = words.last?.first else { return String(first) }
        return "\(first) \(String(initial).uppercased())."
    }
}
