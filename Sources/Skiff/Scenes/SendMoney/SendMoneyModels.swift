import SkiffCore

/// Send money: a form (country code, phone number, amount and note), checked field by field and sent as one request.
enum SendMoney {
    /// The form's fields. The raw value is the field's name in the API, so a field the server refuses lands on it.
    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode
        case phoneNumber
        case amount
        case note
    }

    /// What the form holds when a request is made.
    struct Form: Hashable, Sendable {
        var countryCode: String
        var phoneNumber: String
        var amount: String
        var note: String
    }

    typealias ValidateField = FieldValidation<Field, Form>

    typealias Submit = FormSubmit<Form, Field, Void>

    /// Esc: cancel a running request, else leave.
    enum Back {
        struct Request: Sendable {}
    }
}
