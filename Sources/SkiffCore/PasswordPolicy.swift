/// The rules for passwords, shared by the app (checked as typed) and the server (which also refuses
/// common passwords).
public enum PasswordPolicy {
    /// The fewest characters, counted as a person sees them.
    public static let minimumLength = 8
    /// The most UTF-8 bytes: bcrypt reads no further, so a longer password would be cut without a word.
    public static let maximumBytes = 72

    /// Why a password was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooShort
        case tooLong
        case controlCharacter
        case tooCommon

        public var message: String {
            switch self {
            case .empty: "Enter a password."
            case .tooShort: "Use at least \(PasswordPolicy.minimumLength) characters."
            case .tooLong:
                "Use at most \(PasswordPolicy.maximumBytes) bytes: \(PasswordPolicy.maximumBytes) plain letters, "
                    + "digits or symbols, fewer with accented letters or emoji."
            case .controlCharacter: "Passwords cannot contain control characters such as tab, newline or NUL."
            case .tooCommon: "This password is too common. Choose another."
            }
        }
    }

    /// Checks the length and character rules.
    public static func check(_ password: String) throws(Problem) {
        guard !password.isEmpty else { throw .empty }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .controlCharacter
        }
        guard password.count >= minimumLength else { throw .tooShort }
        guard password.utf8.count <= maximumBytes else { throw .tooLong }
    }
}
