import Foundation
import SkiffCore

/// Verify phone: the 6-digit code sent at registration.
enum VerifyPhone {
    enum Field: String, Hashable, Sendable, CaseIterable {
        case code
    }

    /// What the form holds when the code is sent.
    struct Form: Hashable, Sendable, Redacted {
        var code: String
        init(code: String) { self.code = code }
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

    typealias ValidateField = FieldValidation<Field, Form>

    /// What the scene learns when a request went through.
    enum Done: Sendable {
        case verified
        /// A new code went out.
        case resent
    }

    typealias Submit = FormSubmit<Form, Field, Done>

    enum Resend {
        struct Request: Sendable {}
    }

    /// Esc: cancel a running request, or leave.
    enum Back {
        struct Request: Sendable {}
    }
}
