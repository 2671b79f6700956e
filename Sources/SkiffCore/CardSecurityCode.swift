/// The 3 or 4 digits printed on a card. Checked, used once, never stored.
public enum CardSecurityCode {
    /// How many digits a security code of any brand has.
    static let anyBrandLengths = 3...4

    /// Why a security code was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case wrongLength(expected: Int)

        public var message: String {
            switch self {
            case .empty: "Enter the security code from the back of the card."
            case .wrongLength(let expected): "The security code has \(expected) digits."
            }
        }
    }

    /// Checks that `code` is exactly the brand's number of digits. For a number not yet valid, pass the brand its
    /// leading digits show (`CardNumber.brand(typed:)`), so a short code is named by its brand's length.
    public static func validate(_ code: String, brand: CardBrand) throws(Problem) {
        guard !code.isEmpty else { throw .empty }
        guard code.count == brand.securityCodeLength, code.allSatisfy(\.isASCIIDigit) else {
            throw .wrongLength(expected: brand.securityCodeLength)
        }
    }

    /// True when `code` could be some brand's code (3 or 4 digits), whichever the card's brand is: what the
    /// contract's schema states, so the server answers 400 when this fails and 422 when only the brand's length does.
    public static func fitsAnyBrand(_ code: String) -> Bool {
        anyBrandLengths.contains(code.count) && code.allSatisfy(\.isASCIIDigit)
    }
}
