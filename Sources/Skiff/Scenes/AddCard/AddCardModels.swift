import SkiffCore

/// Add card: the card's details, then a confirmation, then the server adds it.
public enum AddCard {
    public enum Stage: Hashable, Sendable { case form, confirm }

    public enum Field: String, Hashable, Sendable, CaseIterable {
        case number, holderName, expiry, securityCode
    }

    /// What the form holds. The number and security code live here only while the flow runs.
    public struct Form: Hashable, Sendable {
        public var number: String
        public var holderName: String
        public var expiry: String
        public var securityCode: String

        public init(number: String, holderName: String, expiry: String, securityCode: String) {
            self.number = number
            self.holderName = holderName
            self.expiry = expiry
            self.securityCode = securityCode
        }
    }

    public enum Load {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable { public var holderName: String }
        public struct ViewModel: Hashable, Sendable { public var holderName: String }
    }

    public enum NumberChanged {
        public struct Request: Sendable {
            public var digits: String
            public init(digits: String) { self.digits = digits }
        }
        public struct Response: Sendable {
            public var brand: CardBrand
            public var digitCount: Int
        }
        public struct ViewModel: Hashable, Sendable {
            /// The brand's name once the leading digits tell it.
            public var brandName: String?
            /// Group sizes for showing the number as typed.
            public var grouping: [Int]
            public var maxDigits: Int
            public var securityCodeLength: Int
        }
    }

    public typealias ValidateField = FieldValidation<Field, Form>

    /// Enter on the form (checks everything, then confirms) or on the confirmation (adds the card).
    public enum Submit {
        public struct Request: Sendable {
            public var form: Form
            public init(form: Form) { self.form = form }
        }
        public enum Response: Sendable {
            case invalid([Field: InputProblem])
            case confirm(brand: CardBrand, last4: String, expiry: CardExpiry, holderName: String)
            case started
            case failed(NetworkError)
            case added(Card)
        }
        public struct ViewModel: Hashable, Sendable {
            public struct Row: Hashable, Sendable {
                public var label: String
                public var value: String
            }
            public var stage: Stage
            public var fieldErrors: [Field: String]
            public var confirmRows: [Row]
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var focus: Field?
            /// The flow is over: wipe the number and the security code from the fields.
            public var clearSecrets = false
        }
    }

    /// Esc: cancel a running request, or go back one step.
    public enum Back {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable {
            public var stage: Stage
            /// The person is leaving the flow.
            public var leaving = false
        }
        public struct ViewModel: Hashable, Sendable {
            public var stage: Stage
            public var clearSecrets: Bool
        }
    }
}

/// Where Add card sends the person next.
public enum AddCardRoute: Sendable {
    case added(Card)
    case cancelled
}
