import SkiffCore

/// Activate card: the last four digits printed on the card, then a one-time code.
enum ActivateCard {
    enum Stage: Hashable, Sendable { case last4, code }

    enum Field: String, Hashable, Sendable, CaseIterable {
        case last4, code
    }

    struct Form: Hashable, Sendable, Redacted {
        var last4: String
        var code: String
        init(last4: String, code: String) {
            self.last4 = last4
            self.code = code
        }
    }

    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var card: Card }
        struct ViewModel: Hashable, Sendable {
            var title: String
            var instructions: PromptedText
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    /// What the scene learns when a request went through: a code was sent (the development code with it), or
    /// the card is active.
    enum Done: Sendable, Redacted {
        case codeSent(VerificationChallenge, developmentCode: String?)
        case activated(Card)
    }

    typealias Submit = StagedFormSubmit<Form, Field, Done, Stage>

    enum Back {
        struct Request: Sendable {}
    }
}
