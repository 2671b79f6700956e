import SkiffCore

/// Why one field of a form was refused, by the app's own checks or by the server.
public enum InputProblem: Hashable, Sendable {
    case phone(PhoneNumber.Problem)
    case password(PasswordPolicy.Problem)
    case passwordsDiffer
    case fullName(FullName.Problem)
    case code(OneTimeCode.Problem)
    case cardNumber(CardNumber.Problem)
    case expiry(CardExpiry.Problem)
    case securityCode(CardSecurityCode.Problem)
    case holderName
    case last4
    /// The server's own wording for a field.
    case server(String)
}

/// Demo credentials shown on Login when the app runs its own development server.
public struct DemoCredentials: Hashable, Sendable {
    public var countryCode: String
    public var phoneNumber: String
    public var password: String

    public init(countryCode: String, phoneNumber: String, password: String) {
        self.countryCode = countryCode
        self.phoneNumber = phoneNumber
        self.password = password
    }
}

extension Formatting {
    /// The sentence shown under a refused field.
    public func message(for problem: InputProblem) -> String {
        switch problem {
        case .phone(let p): p.message
        case .password(let p): p.message
        case .passwordsDiffer: "The two passwords differ."
        case .fullName(let p): p.message
        case .code(let p): p.message
        case .cardNumber(let p): p.message
        case .expiry(let p): p.message
        case .securityCode(let p): p.message
        case .holderName: "Enter the name printed on the card."
        case .last4: "Enter the last four digits printed on the card."
        case .server(let text): text
        }
    }

    /// Field errors keyed by field, worded.
    public func messages<Field: Hashable>(for problems: [Field: InputProblem]) -> [Field: String] {
        problems.mapValues { message(for: $0) }
    }
}

/// What a one-time code was sent for, as the server's SMS outbox names it.
public enum CodePurpose: String, Sendable {
    case registration
    case passwordReset = "password-reset"
    case cardActivation = "card-activation"
}
