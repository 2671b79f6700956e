import SkiffCore

/// Register: phone, full name and a new password, then a code sent to the phone.
public enum Register {
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, fullName, password, confirmPassword
    }

    public struct Form: Hashable, Sendable {
        public var countryCode: String
        public var phoneNumber: String
        public var fullName: String
        public var password: String
        public var confirmPassword: String

        public init(countryCode: String, phoneNumber: String, fullName: String, password: String, confirmPassword: String) {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.fullName = fullName
            self.password = password
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
            case succeeded
        }
        public struct ViewModel: Hashable, Sendable {
            public var fieldErrors: [Field: String]
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var focus: Field?
        }
    }

    public enum Cancel {
        public struct Request: Sendable { public init() {} }
    }
}

/// Where Register sends the person next.
public enum RegisterRoute: Sendable {
    case verify(Registration, VerificationChallenge)
    case cancelled
}
