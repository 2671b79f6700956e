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

/// A line shown above or below a form: information or an error.
public struct BannerMessage: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, error }
    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
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

/// Checking one field as the person leaves it: the same three shapes in every form scene, which names it
/// `ValidateField`.
public enum FieldValidation<Field: Hashable & Sendable, Form: Sendable> {
    public struct Request: Sendable {
        public var field: Field
        public var form: Form
        public init(field: Field, form: Form) {
            self.field = field
            self.form = form
        }
    }
    public struct Response: Sendable {
        public var field: Field
        public var problem: InputProblem?
    }
    public struct ViewModel: Hashable, Sendable {
        public var field: Field
        public var message: String?
    }
}

/// A phone number as typed into a country code field and a number field.
enum PhoneInput {
    /// Adds the number's problem, if any, to the field it belongs to.
    static func check<Field: Hashable>(
        countryCode: String, number: String, countryCodeField: Field, numberField: Field,
        into problems: inout [Field: InputProblem]
    ) {
        do throws(PhoneNumber.Problem) {
            _ = try PhoneNumber.parse(countryCode: countryCode, number: number)
        } catch {
            switch error {
            case .emptyCountryCode, .invalidCountryCode: problems[countryCodeField] = .phone(error)
            default: problems[numberField] = .phone(error)
            }
        }
    }
}

/// Opening a screen that starts from the number typed on Login: the same three shapes in Register and Forgot
/// password, which name it `Load`.
public enum PhonePrefill {
    public struct Request: Sendable { public init() {} }
    public struct Response: Sendable { public var prefill: LastLogin? }
    public struct ViewModel: Hashable, Sendable {
        public var countryCode: String
        public var phoneNumber: String
    }
}

extension Formatting {
    /// The number carried over from Login, `+1` when no country code was given.
    func phonePrefill(_ response: PhonePrefill.Response) -> PhonePrefill.ViewModel {
        PhonePrefill.ViewModel(
            countryCode: response.prefill.map { $0.countryCode.isEmpty ? "+1" : $0.countryCode } ?? "+1",
            phoneNumber: response.prefill?.phoneNumber ?? ""
        )
    }
}
