import SkiffCore

/// Send money, in three stages: a form (country code, phone number with the numbers money last went to under it,
/// amount, note with its count of characters), checked field by field; the confirmation, in a box of its own (who by full name and number, how much, the note, and the password above the
/// step-up amount), which only its own key (or its "Send $5.00" button) sends from; the receipt.
enum SendMoney {
    enum Stage: Hashable, Sendable { case form, confirm, receipt }

    /// The form's fields. The raw value is the field's name as the workers give a field the server refuses, so
    /// the refusal lands on it (`aliases` maps the names the form calls otherwise).
    enum Field: String, Hashable, Sendable, CaseIterable {
        case countryCode
        case phoneNumber
        case amount
        case note
        /// Only on the confirmation, above the step-up amount.
        case password
    }

    /// The fields the form calls otherwise: the recipient the server refuses is the one the number found.
    static let aliases: [String: Field] = ["recipient": .phoneNumber]

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

    /// Opening the screen: the balance there is to send from, and the numbers money last went to.
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable {
            var balance: Money
            /// Newest first; each one's number reads as a phone number.
            var recents: [RecentRecipient] = []
        }
        struct ViewModel: Hashable, Sendable {
            var instructions: String
            var countryCode: String
            /// The sign before the amount's field (`$`): the account's currency.
            var currencySign: String
            /// One line for each recent recipient, newest first ("Jordan R. · +1 202 555 0111").
            var recents: [String] = []
        }
    }

    /// Money that came in (or went) while the screen is open, as the live stream tells it: the balance to send from.
    enum UpdateBalance {
        struct Request: Sendable { var balance: Money }
        struct Response: Sendable {
            var balance: Money
            /// The form's words show it at once on the form only; Back brings it on the way back.
            var stage: Stage
        }
        /// The form's words with the new balance.
        struct ViewModel: Hashable, Sendable { var instructions: String }
    }

    /// A recent recipient picked (the `index`th, newest first): their number goes into the form.
    enum PickRecent {
        struct Request: Sendable { var index: Int }
        struct Response: Sendable { var phone: PhoneNumber }
        struct ViewModel: Hashable, Sendable {
            var countryCode: String
            var phoneNumber: String
        }
    }

    /// The note as it is typed: how many of its characters are used, of how many.
    enum CountNote {
        struct Request: Sendable { var note: String }
        struct Response: Sendable {
            var used: Int
            var limit: Int
        }
        /// `12/140`; an error past the limit.
        struct ViewModel: Hashable, Sendable {
            var text: String
            var isOver: Bool
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
        /// The number as looked up.
        var phone: PhoneNumber
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

    /// Enter on the form, the send key on the confirmation: as `StagedFormSubmit`, with the confirmation's box.
    enum Submit {
        typealias Request = FormSubmitRequest<Form>
        typealias Response = StagedFormResponse<Stage, Field, Done>
        typealias Outcome = FormSubmitOutcome<Field, Done>
        struct ViewModel: Hashable, Sendable {
            var stage: Stage
            var form: FormSubmitViewModel<Field>
            /// On the confirmation (its box in `form.confirmation`): the words of the button that sends ("Send
            /// $5.00"); nil on the other stages.
            var sendTitle: String? = nil
        }
    }

    /// A key the confirmation has no use for (a digit, Ctrl-U, Enter where no password is asked): nothing happens
    /// to the money, and the screen says which key sends it and which goes back to change it.
    enum StrayKey {
        struct Request: Sendable {}
        struct Response: Sendable { var confirmation: Confirmation }
        struct ViewModel: Hashable, Sendable { var banner: BannerMessage }
    }

    /// Esc: cancel a running request; else from the confirmation back to the form as it was, from the receipt
    /// (or the form) away. The form's words name the balance (`facts`).
    typealias Back = StagedFormBack<Stage, Money>
}
