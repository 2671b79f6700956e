import Foundation
import SkiffAPI
import SkiffCore

extension SkiffAPIHandler {
    func getSpending(_ input: Operations.GetSpending.Input) async throws -> Operations.GetSpending.Output {
        let caller = try Caller.required()
        let report = try await spending.report(userID: caller.userID, month: input.query.month)
        return .ok(.init(body: .json(.init(
            month: report.month.description,
            categories: report.categories.map {
                .init(category: $0.category, amountMinor: $0.amountMinor, currency: $0.currency)
            },
            totals: report.totals.map(\.api),
            previousMonth: report.previousMonth.description,
            previousTotals: report.previousTotals.map(\.api),
            previousSameDays: .init(
                from: report.sameDaysFrom, through: report.sameDaysThrough, totals: report.sameDaysTotals.map(\.api)
            )
        ))))
    }
}

extension Money {
    var api: Components.Schemas.Money { .init(amountMinor: amountMinor, currency: currency) }
}
