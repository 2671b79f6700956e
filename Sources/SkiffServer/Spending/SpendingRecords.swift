import Foundation
import SkiffCore

/// What went out in one category and currency over a period, as a positive amount.
struct CategorySpendingRecord: Sendable, Equatable {
    var category: String
    var currency: String
    var amountMinor: Int64
}
