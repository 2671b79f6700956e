import SkiffCore

/// Send money, in three stages: a form (country code, phone number, amount, note), checked field by field; the
/// confirmation (who, how much, the note, and the password above the step-up amount); the receipt.
enum SendMoney {
    enum Stage: Hashable, Sendable { case form, confirm, receipt }

    /// The form's fields. The raw value is the field's name in the API, so a field the server refuses lands on it
    /// (`aliases` maps the API's other names).
    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode
        case phoneNumber
        case amount
        case note
        /// Only on the confirmation, above the step-up amount.
        case password
    }

    /// The API's names for fields the form calls otherwise.
    static let aliases: [String: Field] = ["amountMinor": .amount, "recipientId": .phoneNumber]

    /// What the form holds when a request is made. It holds the password: never printed.
    struct Form: Hashable, Sendable, Redacted {
        var countryCode: String
        var phoneNumber: String
        var amount: String
        var note: String
        var password: String

        init(countryCode: String = "+1", phoneNumber: String = "", amount: String = "", note: String = "", password: String = "") {
            self.countryCode = countryCode
            self.phoneNumber = phoneNumber
            self.amount = amount
            self.note = note
            self.password = password
        }
    }

    /// Opening the screen: the balance there is to send from.
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var balance: Money }
        struct ViewModel: Hashable, Sendable {
            var instructions: String
            var countryCode: String
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    /// An amount the person left that can be sent, written back into its field as the app writes amounts.
    enum FormatAmount {
        struct Response: Sendable { var amount: Money }
        struct ViewModel: Hashable, Sendable { var text: String }
    }

    /// What the person is asked to confirm.
    struct Confirmation: Hashable, Sendable {
        var recipient: Recipient
        var amount: Money
        var note: String?
        /// Above the step-up amount: the password is asked for on the confirmation.
        var needsPassword: Bool
    }

    /// What Enter came to when it went through: the recipient found (the confirmation), or the money sent.
    enum Done: Sendable {
        case confirm(Confirmation)
        case sent(SentTransfer)
    }

    typealias Submit = StagedFormSubmit<Form, Field, Done, Stage>

    /// Esc: cancel a running request; else from the confirmation back to the form as it was, from the receipt
    /// (or the form) away.
    typealias Back = StagedFormBack<Stage>
}
