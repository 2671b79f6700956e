import SkiffCore

/// Forgot password: the phone number, then the code sent to it with a new password.
public enum ForgotPassword {
    public enum Stage: Hashable, Sendable { case phone, reset }

    public enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, code, newPassword, confirmPassword
    }

    public struct Form: Hashable, Sendable {
        public var countryCode: String
        public var phoneNumber: String
        public var code: String
        public var newPassword: String
        public var confirmPassword: String

        public init(countryCode: String, phoneNumber: String, code: String = "", newPassword: String = "", confirmPassword: String = "") {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.code = code
            self.newPassword = newPassword
            self.confirmPassword = confirmPassword
        }
    }

    public typealias Load = PhonePrefill

    public typealias ValidateField = FieldValidation<Field, Form>

    public enum Submit {
        public struct Request: Sendable {
            public var form: Form
            public init(form: Form) { self.form = form }
        }
        public enum Response: Sendable {
            case invalid([Field: InputProblem])
            case started
            case failed(NetworkError)
            case codeSent(phone: PhoneNumber, challenge: VerificationChallenge, developmentCode: String?)
        }
        public struct ViewModel: Hashable, Sendable {
            public var stage: Stage
            public var fieldErrors: [Field: String]
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var instructions: String?
            public var clearSecrets: Bool
            public var focus: Field?
        }
    }

    public enum Back {
        public struct Request: Sendable { public init() {} }
    }
}

/// Where Forgot password sends the person next.
public enum ForgotPasswordRoute: Sendable {
    /// The password changed: back to Login with the number filled in.
    case passwordReset(LastLogin)
    case cancelled
}
