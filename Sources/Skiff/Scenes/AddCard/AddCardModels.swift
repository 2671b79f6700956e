import SkiffCore

/// Add card: the card's details, then a confirmation, then the server adds it.
enum AddCard {
    enum Stage: Hashable, Sendable { case form, confirm }

    enum Field: String, Hashable, Sendable, CaseIterable {
        case number, holderName, expiry, securityCode
    }

    /// What the form holds. The number and security code live here only while the flow runs.
    struct Form: Hashable, Sendable, Redacted {
        var number: String
        var holderName: String
        var expiry: String
        var securityCode: String

        init(number: String, holderName: String, expiry: String, securityCode: String) {
            self.number = number
            self.holderName = holderName
            self.expiry = expiry
            self.securityCode = securityCode
        }
    }

    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var holderName: String }
        struct ViewModel: Hashable, Sendable { var holderName: String }
    }

    enum NumberChanged {
        struct Request: Sendable, Redacted {
            var digits: String
            init(digits: String) { self.digits = digits }
        }
        struct Response: Sendable {
            var brand: CardBrand
            var digitCount: Int
        }
        struct ViewModel: Hashable, Sendable {
            /// The brand's name once the leading digits tell it.
            var brandName: String?
            /// Group sizes for showing the number as typed.
            var grouping: [Int]
            var maxDigits: Int
            var securityCodeLength: Int
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    /// What Enter came to when it went through: the card to confirm, or the card added.
    enum Done: Sendable {
        case confirm(brand: CardBrand, last4: String, expiry: CardExpiry, holderName: String)
        case added(Card)
    }

    /// Enter on the form (checks everything, then confirms) or on the confirmation (adds the card): as
    /// `StagedFormSubmit`, with the confirmation's rows.
    enum Submit {
        typealias Request = FormSubmitRequest<Form>
        typealias Response = StagedFormResponse<Stage, Field, Done>
        typealias Outcome = FormSubmitOutcome<Field, Done>
        struct ViewModel: Hashable, Sendable {
            var stage: Stage
            var fieldErrors: [Field: String]
            /// The card about to be added, in the confirmation's box; nil on the other stages.
            var confirmation: FormConfirmation?
            var banner: BannerMessage?
            var isBusy: Bool
            var focus: Field?
            /// The flow is over: wipe the number and the security code from the fields.
            var clearSecrets = false
        }
    }

    /// Esc: cancel a running request, or go back one step.
    enum Back {
        struct Request: Sendable {}
        struct Response: Sendable {
            var stage: Stage
            /// The person is leaving the flow.
            var leaving = false
        }
        struct ViewModel: Hashable, Sendable {
            var stage: Stage
            var clearSecrets: Bool
        }
    }
}
