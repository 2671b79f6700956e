import Foundation
import SkiffCore

/// Verify phone: the 6-digit code sent at registration.
enum VerifyPhone {
    enum Field: String, Hashable, Sendable {
        case code
    }

    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable, Redacted {
            var phone: PhoneNumber
            var challenge: VerificationChallenge
            /// The code from the development outbox, when the app runs its own server.
            var developmentCode: String?
        }
        struct ViewModel: Hashable, Sendable {
            var instructions: String
            var developmentBanner: BannerMessage?
        }
    }

    enum Submit {
        struct Request: Sendable, Redacted {
            var code: String
            init(code: String) { self.code = code }
        }
        enum Response: Sendable {
            case invalid(InputProblem)
            case started
            case failed(NetworkError)
            case succeeded
            /// A new code went out.
            case resent
        }
        struct ViewModel: Hashable, Sendable {
            var codeError: String?
            var banner: BannerMessage?
            var isBusy: Bool
            var clearCode: Bool
        }
    }

    enum Resend {
        struct Request: Sendable {}
    }

    /// Esc: cancel a running request, or leave.
    enum Back {
        struct Request: Sendable {}
    }
}
