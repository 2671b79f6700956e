import SkiffCore

/// Transaction detail: one transaction in full.
enum TransactionDetail {
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var transaction: Transaction }
        struct ViewModel: Hashable, Sendable {
            struct Row: Hashable, Sendable {
                var label: String
                var value: String
            }
            var title: String
            var amount: String
            var isIncoming: Bool
            var rows: [Row]
        }
    }

    /// Esc: leave.
    enum Back {
        struct Request: Sendable {}
    }
}
