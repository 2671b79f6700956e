import SkiffCore

/// Login: country code, phone number and password.
enum Login {
    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, password
    }

    /// What the form holds when a request is made.
    struct Form: Hashable, Sendable, Redacted {
        var countryCode: String
        var phoneNumber: String
        var password: String

        init(countryCode: String, phoneNumber: String, password: String) {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.password = password
        }
    }

    /// Why Login is showing again, when it is not the first time.
    enum Notice: Hashable, Sendable {
        case sessionEnded
        case passwordChanged
        case loggedOut
        /// The saved session file was unreadable (cut short, emptied) and was set aside.
        case savedSessionUnreadable
    }

    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable {
            var lastLogin: LastLogin?
            var demo: DemoCredentials?
            var notice: Notice?
        }
        struct ViewModel: Hashable, Sendable {
            var countryCode: String
            var phoneNumber: String
            var hint: String?
            var notice: BannerMessage?
        }
    }

    /// The password was just changed: fill in the number and say so.
    enum PasswordChanged {
        struct Request: Sendable {
            var login: LastLogin
            init(login: LastLogin) { self.login = login }
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    typealias Submit = FormSubmit<Form, Field, Void>

    enum Throttle {
        struct Response: Sendable {
            var remainingSeconds: Int
        }
        struct ViewModel: Hashable, Sendable {
            var banner: BannerMessage?
        }
    }

    /// Esc: cancel a running login.
    enum Back {
        struct Request: Sendable {}
    }

    enum Navigate {
        enum Destination: Sendable { case register, forgotPassword }
        struct Request: Sendable {
            var destination: Destination
            var form: Form
            init(destination: Destination, form: Form) {
                self.destination = destination
                self.form = form
            }
        }
    }
}
