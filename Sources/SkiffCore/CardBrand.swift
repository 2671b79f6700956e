/// A card network, recognised from the leading digits of a card number.
public enum CardBrand: String, Sendable, Codable, CaseIterable {
    case visa
    case mastercard
    case amex
    case discover
    case dinersClub
    case jcb
    case unionPay
    case unknown

    /// The name people know the brand by.
    public var displayName: String {
        switch self {
        case .visa: "Visa"
        case .mastercard: "Mastercard"
        case .amex: "American Express"
        case .discover: "Discover"
        case .dinersClub: "Diners Club"
        case .jcb: "JCB"
        case .unionPay: "UnionPay"
        case .unknown: "Card"
        }
    }

    /// How many digits the card security code has: 4 for American Express, 3 for the rest.
    public var securityCodeLength: Int { self == .amex ? 4 : 3 }

    /// The lengths a number of this brand may have.
    var validLengths: [Int] {
        switch self {
        case .visa: [13, 16, 19]
        case .mastercard: [16]
        case .amex: [15]
        case .discover: [16, 17, 18, 19]
        case .dinersClub: [14, 15, 16, 17, 18, 19]
        case .jcb: [16, 17, 18, 19]
        case .unionPay: [16, 17, 18, 19]
        case .unknown: Array(CardNumber.lengthRange)
        }
    }

    /// The longest number this brand allows, used to stop typing past it.
    public var maxLength: Int { validLengths.max() ?? CardNumber.lengthRange.upperBound }

    /// How the number is shown in groups: 4-4-4-4 for most, 4-6-5 for American Express, 4-6-4 for Diners Club.
    public var grouping: [Int] {
        switch self {
        case .amex: [4, 6, 5]
        case .dinersClub: [4, 6, 4, 5]
        default: [4, 4, 4, 4, 3]
        }
    }

    /// The brand of a (possibly partial) run of digits; `.unknown` until enough digits are known.
    public static func detect(_ digits: some StringProtocol) -> CardBrand {
        func prefix(_ count: Int) -> Int? {
            guard digits.count >= count else { return nil }
            return Int(digits.prefix(count))
        }
        guard let first = digits.first else { return .unknown }
        if first == "4" { return .visa }
        if let two = prefix(2) {
            if two == 34 || two == 37 { return .amex }
            if (51...55).contains(two) { return .mastercard }
            if two == 36 || two == 38 || two == 39 { return .dinersClub }
            if two == 65 { return .discover }
            if two == 62 { return .unionPay }
        }
        if let three = prefix(3) {
            if (300...305).contains(three) { return .dinersClub }
            if (644...649).contains(three) { return .discover }
        }
        if let four = prefix(4) {
            if four == 6011 { return .discover }
            if (2221...2720).contains(four) { return .mastercard }
            if (3528...3589).contains(four) { return .jcb }
        }
        return .unknown
    }
}
