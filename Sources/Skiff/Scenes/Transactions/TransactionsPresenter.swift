import Foundation
import SkiffCore

@MainActor
protocol TransactionsPresentationLogic: AnyObject {
    func presentUpdate(response: Transactions.Update.Response)
    func presentShowCategory(response: Transactions.ShowCategory.Response)
}

/// Words the list: dated and signed rows under month headings, what a search matched and adds up to, and why the
/// list is empty.
@MainActor
final class TransactionsPresenter: TransactionsPresentationLogic, ScenePresentation {
    weak var viewController: (any TransactionsDisplayLogic)?
    private let formatting: Formatting
    private let keys: WalletKeys
    /// Presented again when the display blurs or clears.
    private var last: Transactions.Update.Response?

    init(formatting: Formatting = Formatting(), keys: WalletKeys = .standard) {
        self.formatting = formatting
        self.keys = keys
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.last { presenter.presentUpdate(response: last) }
        }
    }

    func presentUpdate(response: Transactions.Update.Response) {
        last = response
        let state = response.state
        viewController?.displayUpdate(viewModel: .init(
            rows: rows(state.transactions, today: state.today),
            title: title(state),
            emptyText: emptyText(state),
            isLoadingMore: state.activity == .loadingMore,
            moneyArrivedOnTop: state.moneyArrivedOnTop
        ))
    }

    func presentShowCategory(response: Transactions.ShowCategory.Response) {
        viewController?.displayShowCategory(viewModel: .init(searchText: response.category))
    }

    /// Rows under month headings (`November 2026`); a date in another year than `today`'s says its year
    /// (`3 Dec 2025`).
    private func rows(_ transactions: TransactionWindow, today: Date?) -> Transactions.UpdateViewModel.Rows {
        let blurred = formatting.isBlurred
        let currentYear = today.map { formatting.localTime($0).year }
        return .init(
            transactions: transactions, blurred: blurred, currentYear: currentYear,
            heading: { month in Formatting.monthName(month.month) + " \(month.year)" }
        ) { [formatting] transaction in
            let year = formatting.localTime(transaction.createdAt).year
            let day = formatting.shortDay(transaction.createdAt) + (year == currentYear ? "" : " \(year)")
            return .init(
                // The note last, where the row cuts what does not fit.
                text: "\(day)  \(transaction.merchant) · \(transaction.category)" + (transaction.note.map { " · “\($0)”" } ?? ""),
                amount: formatting.amount(transaction.amount, showPlus: true, blurred: blurred),
                isIncoming: transaction.amount.amountMinor > 0
            )
        }
    }

    private func emptyText(_ state: Transactions.State) -> String? {
        guard state.transactions.isEmpty else { return nil }
        if state.activity == .loading { return "Loading transactions…" }
        if state.error != nil && state.query.isEmpty { return "Nothing to show yet." }
        guard !state.query.isEmpty else { return "No transactions yet." }
        if let category = state.category {
            return "No \(category.name) transactions in \(formatting.monthName(category.month, today: state.today))."
        }
        guard let limit = state.searchLimit else { return "No transactions match “\(state.query)”." }
        return "None of your newest \(formatting.count(limit)) transactions match “\(state.query)”; "
            + "type 3 or more characters to search all."
    }

    /// With no search, the title names the search key (the status bar has no room left for it at 100 columns, as
    /// the cards panel's names its own). With one, what matches: how many and what they add up to,
    /// `12 matching “coffee” · -$48.20`. While more pages remain, the count is what came so far (`50+`) and the
    /// total says so; the server's page tells no more than that.
    private func title(_ state: Transactions.State) -> String {
        guard !state.query.isEmpty else { return "Transactions · \(keys.label(for: .search)) to search" }
        let count = state.transactions.count
        let more = state.nextCursor != nil
        let counted = formatting.count(count) + (more ? "+" : "")
        let matching = if let category = state.category {
            "\(counted) in \(category.name) in \(formatting.monthName(category.month, today: state.today))"
        } else {
            "\(counted) matching “\(state.query)”" + (state.searchLimit.map { " in your newest \(formatting.count($0))" } ?? "")
        }
        guard count > 0, let totals = state.transactions.totals else { return matching }
        let total = totals.map { formatting.amount($0, showPlus: true) }.joined(separator: ", ")
        return matching + " · " + total + (more ? " so far" : "")
    }
}
