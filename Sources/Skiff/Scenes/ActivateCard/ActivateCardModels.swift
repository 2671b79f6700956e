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

    enum Submit {
        typealias Request = FormSubmitRequest<Form>
        enum Response: Sendable, FormSubmitResponse, Redacted {
            case invalid([Field: InputProblem])
            case started
            case failed(NetworkError)
            case codeSent(VerificationChallenge, developmentCode: String?)
            case activated(Card)
        }
        struct ViewModel: Hashable, Sendable {
            var stage: Stage
            var fieldErrors: [Field: String]
            var instructions: String?
            var banner: BannerMessage?
            var isBusy: Bool
            var clearCode: Bool
        }
    }

    enum Back {
        struct Request: Sendable {}
    }
}
