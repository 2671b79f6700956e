import SkiffCore

/// Forgot password: the phone number, then the code sent to it with a new password.
enum ForgotPassword {
    enum Stage: Hashable, Sendable { case phone, reset }

    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, code, newPassword, confirmPassword
    }

    struct Form: Hashable, Sendable, Redacted {
        var countryCode: String
        var phoneNumber: String
        var code: String
        var newPassword: String
        var confirmPassword: String

        init(countryCode: String, phoneNumber: String, code: String = "", newPassword: String = "", confirmPassword: String = "") {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.code = code
            self.newPassword = newPassword
            self.confirmPassword = confirmPassword
        }
    }

    typealias Load = PhonePrefill

    typealias ValidateField = FieldValidation<Field, Form>

    /// What the scene learns when the code went out (the development code with it).
    enum Done: Sendable, Redacted {
        case codeSent(phone: PhoneNumber, challenge: VerificationChallenge, developmentCode: String?)
    }

    typealias Submit = StagedFormSubmit<Form, Field, Done, Stage>

    enum Back {
        struct Request: Sendable {}
    }
}
