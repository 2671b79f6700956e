/// A one-time code as sent by SMS: exactly six digits.
public enum OneTimeCode {
    public static let length = 6

    public enum Problem: Error, Hashable, Sendable {
        case empty
        case malformed

        public var message: String {
            switch self {
            case .empty: "Enter the 6-digit code we sent you."
            case .malformed: "The code is 6 digits."
            }
        }
    }

    /// Checks that `code` is six ASCII digits.
    public static func validate(_ code: String) throws(Problem) {
        guard !code.isEmpty else { throw .empty }
        guard code.count == length, code.allSatisfy(\.isASCIIDigit) else { throw .malformed }
    }
}
