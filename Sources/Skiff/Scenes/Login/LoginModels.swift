import SkiffCore

/// Login: country code, phone number and password.
public enum Login {
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, password
    }

    /// What the form holds when a request is made.
    public struct Form: Hashable, Sendable {
        public var countryCode: String
        public var phoneNumber: String
        public var password: String

        public init(countryCode: String, phoneNumber: String, password: String) {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.password = password
        }
    }

    /// Why Login is showing again, when it is not the first time.
    public enum Notice: Hashable, Sendable {
        case sessionEnded
        case passwordChanged
        case loggedOut
    }

    public enum Load {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable {
            public var lastLogin: LastLogin?
            public var demo: DemoCredentials?
            public var notice: Notice?
        }
        public struct ViewModel: Hashable, Sendable {
            public var countryCode: String
            public var phoneNumber: String
            public var hint: String?
            public var notice: BannerMessage?
        }
    }

    /// The password was just changed: fill in the number and say so.
    public enum PasswordChanged {
        public struct Request: Sendable {
            public var login: LastLogin
            public init(login: LastLogin) { self.login = login }
        }
    }

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
            public var clearPassword: Bool
            /// The field to put the cursor in, where the person has something to fix.
            public var focus: Field?
        }
    }

    public enum Throttle {
        public struct Response: Sendable {
            public var remainingSeconds: Int
        }
        public struct ViewModel: Hashable, Sendable {
            public var banner: BannerMessage?
        }
    }

    public enum Cancel {
        public struct Request: Sendable { public init() {} }
    }

    public enum Navigate {
        public enum Destination: Sendable { case register, forgotPassword }
        public struct Request: Sendable {
            public var destination: Destination
            public var form: Form
            public init(destination: Destination, form: Form) {
                self.destination = destination
                self.form = form
            }
        }
    }
}

/// Where Login sends the person next.
public enum LoginRoute: Sendable {
    case loggedIn(Session)
    case register(prefill: LastLogin)
    case forgotPassword(prefill: LastLogin)
}
