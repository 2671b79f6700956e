import SkiffCore

/// Register: phone, full name and a new password, then a code sent to the phone.
enum Register {
    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode, phoneNumber, fullName, password, confirmPassword
    }

    struct Form: Hashable, Sendable, Redacted {
        var countryCode: String
        var phoneNumber: String
        var fullName: String
        var password: String
        var confirmPassword: String

        init(countryCode: String, phoneNumber: String, fullName: String, password: String, confirmPassword: String) {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.fullName = fullName
            self.password = password
            self.confirmPassword = confirmPassword
        }
    }

    typealias Load = PhonePrefill

    typealias ValidateField = FieldValidation<Field, Form>

    typealias Submit = FormSubmit<Form, Field, Void>

    /// Esc: cancel a running request, or leave.
    enum Back {
        struct Request: Sendable {}
    }
}
