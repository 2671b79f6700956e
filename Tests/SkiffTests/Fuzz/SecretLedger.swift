import SkiffCore

/// The card numbers and security codes a fuzzing walk typed, and where text gives one of them away.
///
/// A number counts as given away when 12 or more of its digits appear in a row, spaces or dashes between them
/// allowed (the way a number is grouped). A security code counts when it stands alone as a token: its digits,
/// and nothing but a space, a bullet, a box line or the line's edge either side (so amounts such as `$125.02`,
/// dates such as `11/30` and longer digit runs do not count).
struct SecretLedger {
    /// How many digits of a card number in a row give it away.
    static let revealingRun = 12

    private var numberWindows: Set<Substring> = []
    private(set) var securityCodes: Set<String> = []
    private(set) var numbers: [String] = []

    /// Remembers a card number (digits only) typed into the app.
    mutating func addNumber(_ digits: String) {
        numbers.append(digits)
        guard digits.count >= Self.revealingRun else { return }
        let characters = Array(digits)
        for start in 0...(characters.count - Self.revealingRun) {
            numberWindows.insert(Substring(String(characters[start..<(start + Self.revealingRun)])))
        }
    }

    /// Remembers a security code typed into the app.
    mutating func addSecurityCode(_ code: String) {
        securityCodes.insert(code)
    }

    /// What in `text` gives away a typed number or security code, described for a failure; nil when nothing does.
    func leak(in text: String) -> String? {
        numberLeak(in: text) ?? securityCodeLeak(in: text)
    }

    /// The first typed card number `text` gives away, described; nil when none.
    func numberLeak(in text: String) -> String? {
        if !numberWindows.isEmpty {
            for run in Self.digitRuns(in: text) where run.count >= Self.revealingRun {
                let digits = Array(run)
                for start in 0...(digits.count - Self.revealingRun) {
                    let window = Substring(String(digits[start..<(start + Self.revealingRun)]))
                    if numberWindows.contains(window) { return "a full card number (\(window)…)" }
                }
            }
        }
        return nil
    }

    /// The first typed security code `text` gives away, described; nil when none.
    func securityCodeLeak(in text: String) -> String? {
        if !securityCodes.isEmpty {
            for token in Self.standaloneNumbers(in: text) where securityCodes.contains(token) {
                return "a security code (\(token))"
            }
        }
        return nil
    }

    /// Runs of digits with at most one space or dash between two digits, as digits only.
    static func digitRuns(in text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        var pendingSeparator = false
        for character in text {
            if character.isASCII, character.isNumber {
                current.append(character)
                pendingSeparator = false
            } else if (character == " " || character == "-"), !current.isEmpty, !pendingSeparator {
                pendingSeparator = true
            } else {
                if !current.isEmpty { runs.append(current) }
                current = ""
                pendingSeparator = false
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    private static let tokenEdges: Set<Character> = [" ", "•", "│", "|", "*"]

    /// Digit runs with only a space, bullet or box line (or the text's edge) on either side.
    static func standaloneNumbers(in text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var openedCleanly = true
        var previous: Character?
        for character in text {
            if character.isASCII, character.isNumber {
                if current.isEmpty { openedCleanly = previous.map { tokenEdges.contains($0) || $0.isNewline } ?? true }
                current.append(character)
            } else {
                if !current.isEmpty, openedCleanly, tokenEdges.contains(character) || character.isNewline {
                    tokens.append(current)
                }
                current = ""
            }
            previous = character
        }
        if !current.isEmpty, openedCleanly { tokens.append(current) }
        return tokens
    }

    /// What in a view model gives away a typed secret: any string inside it (however deep) that leaks, or a
    /// `Redacted` value, which holds secrets by definition and has no place in a view model.
    /// `securityCodes` false looks for numbers only (view models worded from server data, such as a
    /// transaction's reference, may hold any short number).
    func leak(inViewModel value: Any, securityCodes: Bool = true) -> String? {
        if value is any Redacted { return "a Redacted value (\(type(of: value)))" }
        if let text = value as? String { return securityCodes ? leak(in: text) : numberLeak(in: text) }
        if let text = value as? Substring { return leak(inViewModel: String(text), securityCodes: securityCodes) }
        for child in Mirror(reflecting: value).children {
            if let found = leak(inViewModel: child.value, securityCodes: securityCodes) {
                return child.label.map { "\($0): \(found)" } ?? found
            }
        }
        return nil
    }
}

/// Card numbers that pass the Luhn check, for the brands Skiff knows.
enum FuzzCards {
    /// A fresh valid number (Visa, Mastercard or American Express) and a security code of its brand's length.
    static func card(using random: inout some RandomNumberGenerator) -> (number: String, securityCode: String) {
        let prefixes: [(prefix: String, length: Int, codeLength: Int)] = [
            ("4", 16, 3), ("51", 16, 3), ("55", 16, 3), ("2221", 16, 3), ("34", 15, 4), ("37", 15, 4),
        ]
        let pick = prefixes[Int.random(in: prefixes.indices, using: &random)]
        var digits = pick.prefix
        while digits.count < pick.length - 1 {
            digits.append(String(Int.random(in: 0...9, using: &random)))
        }
        digits.append(String(luhnCheckDigit(for: digits)))
        var code = ""
        // A code that starts with a non-zero digit and repeats none, so no date, amount or last four looks like it.
        var unused = Array("123456789").shuffled(using: &random)
        for _ in 0..<pick.codeLength { code.append(unused.removeLast()) }
        return (digits, code)
    }

    static func luhnCheckDigit(for payload: String) -> Int {
        var sum = 0
        for (offset, character) in payload.reversed().enumerated() {
            var digit = character.wholeNumberValue ?? 0
            if offset % 2 == 0 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return (10 - sum % 10) % 10
    }
}
