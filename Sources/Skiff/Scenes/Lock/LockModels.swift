import SkiffCore

/// Why the session is locked.
enum LockReason: Hashable, Sendable {
    /// No key for the lock time.
    case idle
    /// It was locked when Skiff last ran.
    case lockedBefore
    /// The server answered that it holds the session locked (its own idle time, or another copy of Skiff).
    case server
}

/// The idle lock: the password again, checked by the server, or log out.
enum Lock {
    enum Field: String, Hashable, Sendable, CaseIterable {
        case password
    }

    /// What the form holds when the password is sent.
    struct Form: Hashable, Sendable, Redacted {
        var password: String
        init(password: String) { self.password = password }
    }

    /// Before the screen is drawn: the saved session is marked locked, then the server is told.
    enum Engage {
        struct Request: Sendable {}
    }

    /// The screen comes up: whose session is locked, and why.
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable {
            var userName: String
            var reason: LockReason
        }
        struct ViewModel: Hashable, Sendable {
            var message: PromptedText
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    /// Enter: check the password with the server.
    typealias Submit = FormSubmit<Form, Field, Never>

    /// Esc: stop a password check that is still on its way (the lock itself stays).
    enum Back {
        struct Request: Sendable {}
    }

    /// The log-out key: end the session from the lock.
    enum Logout {
        struct Request: Sendable {}
        struct Response: Sendable {}
        struct ViewModel: Hashable, Sendable {
            var banner: BannerMessage
        }
    }
}
