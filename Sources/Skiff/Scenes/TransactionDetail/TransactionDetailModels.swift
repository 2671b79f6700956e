import SkiffCore

/// Transaction detail: one transaction in full.
enum TransactionDetail {
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var transaction: Transaction }
        /// Titled with the merchant and headed with the signed amount.
        typealias ViewModel = DetailContent
    }

    /// Esc: leave.
    enum Back {
        struct Request: Sendable {}
    }
}
