import SkiffCore

/// Why one field of a form was refused, by the app's own checks or by the server.
enum InputProblem: Hashable, Sendable {
    case phone(PhoneNumber.Problem)
    case password(PasswordPolicy.Problem)
    case passwordsDiffer
    case fullName(FullName.Problem)
    case code(OneTimeCode.Problem)
    case cardNumber(CardNumber.Problem)
    case expiry(CardExpiry.Problem)
    case securityCode(CardSecurityCode.Problem)
    case holderName(CardHolderName.Problem)
    case last4(CardLastFour.Problem)
    case amount(AmountInput.Problem)
    case note(TransferRules.Problem)
    /// The server's own wording for a field.
    case server(String)

    /// Whether the server refused the field (the app's own checks did not).
    var isFromServer: Bool {
        if case .server = self { true } else { false }
    }
}

extension Formatting {
    /// The sentence shown under a refused field.
    func message(for problem: InputProblem) -> String {
        switch problem {
        case .phone(let p): p.message
        case .password(let p): p.message
        case .passwordsDiffer: "The two passwords differ."
        case .fullName(let p): p.message
        case .code(let p): p.message
        case .cardNumber(let p): p.message
        case .expiry(let p): p.message
        case .securityCode(let p): p.message
        case .holderName(let p): p.message
        case .last4(let p): p.message
        case .amount(let p): p.message
        case .note(let p): p.message
        case .server(let text): text
        }
    }

    /// Field errors keyed by field, worded.
    func messages<Field: Hashable>(for problems: [Field: InputProblem]) -> [Field: String] {
        problems.mapValues { message(for: $0) }
    }
}
