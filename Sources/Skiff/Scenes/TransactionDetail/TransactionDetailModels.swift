import SkiffCore

/// Transaction detail: one transaction in full.
public enum TransactionDetail {
    public enum Load {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable { public var transaction: Transaction }
        public struct ViewModel: Hashable, Sendable {
            public struct Row: Hashable, Sendable {
                public var label: String
                public var value: String
            }
            public var title: String
            public var amount: String
            public var isIncoming: Bool
            public var rows: [Row]
        }
    }

    public enum Close {
        public struct Request: Sendable { public init() {} }
    }
}

/// Where Transaction detail sends the person next.
public enum TransactionDetailRoute: Sendable {
    case close
}
