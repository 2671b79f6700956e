import SkiffCore

@MainActor
protocol SpendingPresentationLogic: AnyObject {
    func presentUpdate(response: Spending.Update.Response)
}

/// Words the Spending panel: the month, what was spent against the same days of the month before, a bar per
/// category.
@MainActor
final class SpendingPresenter: SpendingPresentationLogic, ScenePresentation {
    weak var viewController: (any SpendingDisplayLogic)?
    private let formatting: Formatting
    /// Presented again when the display blurs or clears.
    private var last: Spending.Update.Response?

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.last { presenter.presentUpdate(response: last) }
        }
    }

    /// The categories the panel has room for, the largest first.
    static let barLimit = 6

    func presentUpdate(response: Spending.Update.Response) {
        last = response
        let state = response.state
        let spending = state.spending
        let bars = (spending?.categories ?? []).prefix(Self.barLimit).map {
            Spending.UpdateViewModel.Bar(category: $0.name, value: Double($0.amount.amountMinor), amount: formatting.amount($0.amount))
        }
        viewController?.displayUpdate(viewModel: .init(
            isShown: state.isShown,
            title: "Spending" + (spending.map { " · " + formatting.monthName($0.month) } ?? ""),
            bars: bars,
            summary: spending.map(summary) ?? "",
            emptyText: bars.isEmpty ? emptyText(state) : nil
        ))
    }

    /// `Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)`: the change in the first currency spent, against the
    /// same days of the month before (the days the server compared). With nothing spent on those days:
    /// `Spent $12.00 · nothing spent from November 1 to 2`.
    private func summary(_ spending: MonthlySpending) -> String {
        let spent = spending.totals.isEmpty ? "nothing yet" : spending.totals.map { formatting.amount($0) }.joined(separator: " + ")
        let days = spending.previousDays
        let month = formatting.monthName(spending.previousMonth)
        let previousDays = month + " " + (days.count == 1 ? "\(days.lowerBound)" : "\(days.lowerBound)–\(days.upperBound)")
        guard let currency = (spending.totals.first ?? spending.previousDaysTotals.first)?.currency,
              let previous = spending.previousDaysTotals.first(where: { $0.currency == currency }), previous.amountMinor > 0
        else {
            let thoseDays = days.count == 1 ? "on \(month) \(days.lowerBound)" : "from \(month) \(days.lowerBound) to \(days.upperBound)"
            guard !spending.totals.isEmpty else { return "Nothing spent yet, and nothing \(thoseDays) either" }
            return "Spent \(spent) · nothing spent \(thoseDays)"
        }
        let current = spending.totals.first { $0.currency == currency }?.amountMinor ?? 0
        let change = switch Self.percentChange(from: previous.amountMinor, to: current) {
        case nil: current > previous.amountMinor ? "far more than" : "far less than"
        case 0?: "about the same as"
        case let percent? where percent > 0: "\(percent)% more than"
        case let percent?: "\(-percent)% less than"
        }
        return "Spent \(spent) · \(change) \(previousDays) (\(formatting.amount(previous)))"
    }

    /// The change from `previous` (above zero) to `current` in whole percent; nil when it is too large to say in
    /// digits (amounts near the ends of their range, which plain arithmetic would trap on).
    static func percentChange(from previous: Int64, to current: Int64) -> Int? {
        let (difference, overflow) = current.subtractingReportingOverflow(previous)
        guard !overflow, previous > 0 else { return nil }
        let percent = (Double(difference) / Double(previous) * 100).rounded()
        guard percent.magnitude < 1_000_000 else { return nil }
        return Int(percent)
    }

    private func emptyText(_ state: Spending.State) -> String {
        if state.isLoading { return "Loading spending…" }
        if let error = state.error { return formatting.message(for: error) ?? "Spending could not be loaded." }
        return state.spending == nil ? "" : "Nothing spent yet this month."
    }
}
