/// A payment card number that passed validation: 12–19 digits, the Luhn check, and its brand's lengths.
///
/// It is `Redacted` (brand and last four) so that a number never lands whole in a log by accident.
public struct CardNumber: Hashable, Sendable, Redacted {
    /// How many digits any card number may have.
    static let lengthRange = 12...19

    /// The digits, and only the digits. Handle with care: this is the one place the whole number lives.
    public let digits: String
    /// The brand recognised from the leading digits.
    public let brand: CardBrand

    /// Why a card number was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case invalidCharacters
        case tooShort
        case tooLong
        case wrongLengthForBrand(CardBrand)
        case failsChecksum

        /// A sentence a person can act on.
        public var message: String {
            switch self {
            case .empty: "Enter the card number."
            case .invalidCharacters: "A card number holds digits only."
            case .tooShort: "This card number is too short."
            case .tooLong: "A card number has at most 19 digits."
            case .wrongLengthForBrand(let brand):
                "\(brand.displayName) numbers have \(CardNumber.listLengths(brand.validLengths)) digits."
            case .failsChecksum: "This card number is not valid. Check for a typo."
            }
        }
    }

    /// Validates what a person typed; spaces and dashes between digits are ignored.
    public init(_ raw: String) throws(Problem) {
        let digits = try CardNumber.digitsOnly(raw)
        guard !digits.isEmpty else { throw .empty }
        guard digits.count >= CardNumber.lengthRange.lowerBound else { throw .tooShort }
        guard digits.count <= CardNumber.lengthRange.upperBound else { throw .tooLong }
        let brand = CardBrand.detect(digits)
        guard brand.validLengths.contains(digits.count) else { throw .wrongLengthForBrand(brand) }
        guard CardNumber.passesLuhn(digits) else { throw .failsChecksum }
        self.digits = digits
        self.brand = brand
    }

    /// The last four digits.
    public var last4: String { String(digits.suffix(4)) }

    /// `•••• 4242`: the only form a number is shown in outside the field it is typed into.
    public var masked: String { CardNumber.mask(last4: last4) }

    /// `Visa •••• 4242`.
    public var name: String { CardNumber.name(brand: brand, last4: last4) }

    /// `Visa •••• 4242`: the card's name, never more of the number.
    public var redactedDescription: String { name }

    /// `•••• 4242` from the last four digits alone.
    public static func mask(last4: String) -> String { "•••• " + last4 }

    /// `Visa •••• 4242`: how a card is named wherever it is shown or spoken of.
    public static func name(brand: CardBrand, last4: String) -> String { "\(brand.displayName) \(mask(last4: last4))" }

    /// Strips spaces and dashes; refuses anything else that is not a digit.
    public static func digitsOnly(_ raw: String) throws(Problem) -> String {
        var digits = ""
        for char in raw {
            if char.isASCIIDigit { digits.append(char) }
            else if char == " " || char == "-" { continue }
            else { throw .invalidCharacters }
        }
        return digits
    }

    /// The brand the leading digits of a number as typed show, valid or not (spaces, dashes and other characters
    /// are skipped): what a security code is checked against before the number is complete.
    public static func brand(typed raw: String) -> CardBrand {
        CardBrand.detect(raw.filter(\.isASCIIDigit))
    }

    /// The Luhn (mod 10) check.
    public static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, char) in digits.reversed().enumerated() {
            guard let value = char.wholeNumberValue else { return false }
            if index % 2 == 1 {
                let doubled = value * 2
                sum += doubled > 9 ? doubled - 9 : doubled
            } else {
                sum += value
            }
        }
        return !digits.isEmpty && sum % 10 == 0
    }

    /// Splits digits into the brand's groups: `4242424242424242` → `4242 4242 4242 4242`, Amex 4-6-5.
    static func grouped(_ digits: String, brand: CardBrand? = nil) -> String {
        let groups = (brand ?? CardBrand.detect(digits)).grouping
        var out = ""
        var rest = Substring(digits)
        var index = 0
        while !rest.isEmpty {
            let size = index < groups.count ? groups[index] : 4
            if !out.isEmpty { out.append(" ") }
            out += rest.prefix(size)
            rest = rest.dropFirst(size)
            index += 1
        }
        return out
    }

    static func listLengths(_ lengths: [Int]) -> String {
        let names = lengths.map(String.init)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
