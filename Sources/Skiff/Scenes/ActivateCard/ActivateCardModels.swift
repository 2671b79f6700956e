import SkiffCore

/// Activate card: the last four digits printed on the card, then a one-time code.
public enum ActivateCard {
    public enum Stage: Hashable, Sendable { case last4, code }

    public enum Field: String, Hashable, Sendable, CaseIterable {
        case last4, code
    }

    public struct Form: Hashable, Sendable {
        public var last4: String
        public var code: String
        public init(last4: String, code: String) {
            self.last4 = last4
            self.code = code
        }
    }

    public enum Load {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable { public var card: Card }
        public struct ViewModel: Hashable, Sendable {
            public var title: String
            public var instructions: String
        }
    }

    public enum Submit {
        public struct Request: Sendable {
            public var form: Form
            public init(form: Form) { self.form = form }
        }
        public enum Response: Sendable {
            case invalid([Field: InputProblem])
            case started
            case failed(NetworkError)
            case codeSent(VerificationChallenge, developmentCode: String?)
            case activated(Card)
        }
        public struct ViewModel: Hashable, Sendable {
            public var stage: Stage
            public var fieldErrors: [Field: String]
            public var instructions: String?
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var clearCode: Bool
        }
    }

    public enum Back {
        public struct Request: Sendable { public init() {} }
    }
}

/// Where Activate card sends the person next.
public enum ActivateCardRoute: Sendable {
    case activated(Card)
    case cancelled
}
