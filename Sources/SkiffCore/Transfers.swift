/// The rules of sending money that both the app and the server apply, each written once.
public enum TransferRules {
    /// Transfers above this amount (in USD minor units: $100.00) need a fresh proof of the password (a step-up).
    public static let stepUpAboveMinor: Int64 = 10_000
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
            case .noteControlCharacters: SharedText.refusalMessage(for: "A note")
            }
        }
    }

    /// True when a transfer of `amountMinor` needs a step-up whatever else was sent today: what the app knows before
    /// it sends.
    public static func needsStepUp(amountMinor: Int64) -> Bool { amountMinor > stepUpAboveMinor }

    /// True when a transfer of `amountMinor`, after `sentTodayMinor` sent to people today, needs a step-up: the day's
    /// total past the step-up amount, not only one transfer, so a stolen unlocked session cannot send the day's limit
    /// in pieces below it (the server's rule; the app learns it from a 403 `step-up-required`).
    public static func needsStepUp(amountMinor: Int64, sentTodayMinor: Int64) -> Bool {
        let (total, overflow) = sentTodayMinor.addingReportingOverflow(amountMinor)
        return overflow || total > stepUpAboveMinor
    }

    /// How many characters of `raw` count against `noteMaxCharacters`: those the note keeps once trimmed, as a person
    /// counts them (what `validateNote` measures).
    public static func noteLength(_ raw: String) -> Int { raw.trimmingSpaces().count }

    /// The note trimmed, nil when it is empty; throws for one that is too long or holds what `SharedText` refuses (its
    /// payee sees it, inside other text).
    public static func validateNote(_ raw: String?) throws(Problem) -> String? {
        guard let raw else { return nil }
        guard SharedText.refusal(in: raw) == nil else { throw .noteControlCharacters }
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
