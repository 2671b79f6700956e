/// A phone number normalised to E.164 (`+12025550143`).
public struct PhoneNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The country calling code without `+` (`1`, `44`).
    public let countryCode: String
    /// The national significant number, digits only (`2025550143`).
    public let nationalNumber: String

    /// Why a phone number was refused.
    public enum Problem: Error, Hashable, Sendable {
        case emptyCountryCode
        case invalidCountryCode
        case empty
        case invalidCharacters
        case wrongLength(expected: ClosedRange<Int>)
        case invalidForCountry

        /// A sentence a person can act on.
        public var message: String {
            switch self {
            case .emptyCountryCode: "Enter a country code, such as +1."
            case .invalidCountryCode: "A country code is 1 to 3 digits after +, such as +44."
            case .empty: "Enter a phone number."
            case .invalidCharacters: "A phone number holds digits only (spaces, dashes and brackets are fine)."
            case .wrongLength(let range) where range.lowerBound == range.upperBound:
                "This country's numbers have \(range.lowerBound) digits."
            case .wrongLength(let range): "This country's numbers have \(range.lowerBound) to \(range.upperBound) digits."
            case .invalidForCountry: "This is not a valid number for the country code."
            }
        }
    }

    /// The number as `+` country code and national number.
    public var e164: String { "+" + countryCode + nationalNumber }

    public var description: String { e164 }

    /// A readable form: `+1 202 555 0143` for NANP numbers, otherwise `+44 7700 900123`-style blocks of four.
    public var displayString: String {
        if countryCode == "1" && nationalNumber.count == 10 {
            let d = Array(nationalNumber)
            return "+1 \(String(d[0..<3])) \(String(d[3..<6])) \(String(d[6..<10]))"
        }
        var groups: [String] = []
        var rest = Substring(nationalNumber)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return "+" + countryCode + " " + groups.joined(separator: " ")
    }

    private init(countryCode: String, nationalNumber: String) {
        self.countryCode = countryCode
        self.nationalNumber = nationalNumber
    }

    /// Parses what a person typed: `+1` or `1` as the country code, and a number that may hold spaces, dashes,
    /// dots and brackets. A national trunk `0` is dropped where the country uses one.
    public static func parse(countryCode rawCode: String, number rawNumber: String) throws(Problem) -> PhoneNumber {
        var code = rawCode.trimmingSpaces()
        if code.hasPrefix("+") { code.removeFirst() }
        guard !code.isEmpty else { throw .emptyCountryCode }
        guard code.count <= 3, code.allSatisfy(\.isASCIIDigit), code.first != "0" else { throw .invalidCountryCode }

        let trimmed = rawNumber.trimmingSpaces()
        guard !trimmed.isEmpty else { throw .empty }
        var digits = ""
        for char in trimmed {
            if char.isASCIIDigit { digits.append(char) }
            else if " -.()/".contains(char) { continue }
            else { throw .invalidCharacters }
        }
        guard !digits.isEmpty else { throw .empty }

        let rule = CountryRule.rule(for: code)
        if rule.trunkPrefix, digits.hasPrefix("0") { digits.removeFirst() }
        if code == "1", digits.count == 11, digits.hasPrefix("1") { digits.removeFirst() }
        guard rule.lengths.contains(digits.count), code.count + digits.count <= 15 else {
            throw .wrongLength(expected: rule.lengths)
        }
        if code == "1" {
            // NANP: area code and exchange both start with 2–9.
            let d = Array(digits)
            guard d[0] >= "2", d[3] >= "2" else { throw .invalidForCountry }
        }
        return PhoneNumber(countryCode: code, nationalNumber: digits)
    }

    /// Parses an E.164 string (`+12025550143`) as stored by a server.
    public static func parse(e164: String) throws(Problem) -> PhoneNumber {
        guard e164.hasPrefix("+") else { throw .invalidCountryCode }
        let digits = e164.dropFirst()
        for length in 1...3 where digits.count > length {
            let code = String(digits.prefix(length))
            if CountryRule.known[code] != nil {
                return try parse(countryCode: code, number: String(digits.dropFirst(length)))
            }
        }
        throw .invalidCountryCode
    }

    private struct CountryRule {
        let lengths: ClosedRange<Int>
        let trunkPrefix: Bool

        static let known: [String: CountryRule] = [
            "1": .init(lengths: 10...10, trunkPrefix: false),
            "7": .init(lengths: 10...10, trunkPrefix: false),
            "31": .init(lengths: 9...9, trunkPrefix: true),
            "33": .init(lengths: 9...9, trunkPrefix: true),
            "34": .init(lengths: 9...9, trunkPrefix: false),
            "39": .init(lengths: 6...11, trunkPrefix: false),
            "44": .init(lengths: 9...10, trunkPrefix: true),
            "49": .init(lengths: 6...13, trunkPrefix: true),
            "55": .init(lengths: 10...11, trunkPrefix: true),
            "61": .init(lengths: 9...9, trunkPrefix: true),
            "81": .init(lengths: 9...10, trunkPrefix: true),
            "86": .init(lengths: 11...11, trunkPrefix: true),
            "91": .init(lengths: 10...10, trunkPrefix: true),
        ]

        static func rule(for code: String) -> CountryRule {
            known[code] ?? CountryRule(lengths: 4...14, trunkPrefix: false)
        }
    }
}

extension Character {
    /// `0`–`9` only, unlike `isNumber`, which accepts other scripts' digits and fractions.
    public var isASCIIDigit: Bool { ("0"..."9").contains(self) && unicodeScalars.count == 1 }
}

extension String {
    func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
