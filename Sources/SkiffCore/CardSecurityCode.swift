/// The 3 or 4 digits printed on a card. Checked, used once, never stored.
public enum CardSecurityCode {
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

    /// Checks that `code` is exactly the brand's number of digits.
    public static func validate(_ code: String, brand: CardBrand) throws(Problem) {
        guard !code.isEmpty else { throw .empty }
        guard code.count == brand.securityCodeLength, code.allSatisfy(\.isASCIIDigit) else {
            throw .wrongLength(expected: brand.securityCodeLength)
        }
    }
}
