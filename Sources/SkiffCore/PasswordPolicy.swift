/// The length rule for passwords, shared by the app (checked as typed) and the server (which also refuses
/// common passwords).
public enum PasswordPolicy {
    public static let lengthRange = 8...128

    /// Why a password was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooShort
        case tooLong
        case tooCommon

        public var message: String {
            switch self {
            case .empty: "Enter a password."
            case .tooShort: "Use at least \(PasswordPolicy.lengthRange.lowerBound) characters."
            case .tooLong: "Use at most \(PasswordPolicy.lengthRange.upperBound) characters."
            case .tooCommon: "This password is too common. Choose another."
            }
        }
    }

    /// Checks the length rule (counted in characters as a person sees them).
    public static func check(_ password: String) throws(Problem) {
        guard !password.isEmpty else { throw .empty }
        guard password.count >= lengthRange.lowerBound else { throw .tooShort }
        guard password.count <= lengthRange.upperBound else { throw .tooLong }
    }
}
