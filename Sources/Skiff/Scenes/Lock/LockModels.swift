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

    /// Enter: check the password with the server.
    enum Unlock {
        struct Request: Sendable, Redacted {
            var password: String
        }
        enum Response: Sendable {
            case started
            case empty
            case refused(NetworkError)
        }
        struct ViewModel: Hashable, Sendable {
            /// The line under the field: an error, or what is happening.
            var status: String?
            var isError: Bool
            /// Empty the password field (after a refusal).
            var clearsPassword: Bool
        }
    }

    /// The log-out key: end the session from the lock.
    enum Logout {
        struct Request: Sendable {}
        struct Response: Sendable {}
        struct ViewModel: Hashable, Sendable {
            var status: String
        }
    }
}
