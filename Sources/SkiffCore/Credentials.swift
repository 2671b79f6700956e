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

/// A person's full name as given at registration.
public enum FullName {
    public static let maxLength = 100

    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooLong

        public var message: String {
            switch self {
            case .empty: "Enter your full name."
            case .tooLong: "Use at most \(FullName.maxLength) characters."
            }
        }
    }

    /// Trims spaces and checks the name is present and not too long; returns the trimmed name.
    public static func validate(_ raw: String) throws(Problem) -> String {
        let name = raw.trimmingSpaces()
        guard !name.isEmpty else { throw .empty }
        guard name.count <= maxLength else { throw .tooLong }
        return name
    }
}
