import Foundation
import SkiffCore

@MainActor
protocol HomePresentationLogic: AnyObject {
    func presentUpdate(response: Home.Update.Response)
    func presentLoadSpending(response: Home.LoadSpending.Response)
    func presentSelectCategory(response: Home.SelectCategory.Response)
}

/// Turns Home's state into lines: the balance, masked cards, dated and signed amounts, and how fresh it all is.
@MainActor
final class HomePresenter: HomePresentationLogic, ScenePresentation {
    weak var viewController: (any HomeDisplayLogic)?
    private let formatting: Formatting
    private let keys: WalletKeys
    private var lastUpdate: Home.Update.Response?
    private var lastSpending: Home.LoadSpending.Response?
    /// The card rows last made, with their cards: Home is presented on every page asked for, its cards seldom change.
    private var shownCards: (cards: [Card], rows: [Home.Update.ViewModel.CardRow]) = ([], [])

    init(formatting: Formatting = Formatting(), keys: WalletKeys = .standard) {
        self.formatting = formatting
        self.keys = keys
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.lastUpdate { presenter.presentUpdate(response: last) }
            if let spending = presenter.lastSpending { presenter.presentLoadSpending(response: spending) }
        }
    }

    func presentUpdate(response: Home.Update.Response) {
        lastUpdate = response
        let state = response.state
        let unread = state.summary?.unreadNotifications ?? 0
        let cards = cardRows(state.cards)
        viewController?.displayUpdate(viewModel: .init(
            name: state.summary?.user.fullName ?? "",
            balance: "Balance " + (state.summary.map { formatting.amount($0.balance) } ?? "—"),
            unreadBadge: unread > 0 ? "\(unread) unread" : nil,
            cards: cards,
            canActivateCard: cards.contains { $0.needsActivation },
            cardsEmptyText: state.cards.isEmpty && state.summary != nil
                ? PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]) : nil,
            transactions: transactionRows(state.transactions, today: state.today),
            transactionsTitle: transactionsTitle(state),
            emptyText: emptyText(state),
            banner: banner(state),
            isBusy: state.activity == .loading,
            isLoadingMore: state.activity == .loadingMore,
            connection: state.isOffline ? Self.offline : nil
        ))
    }

    /// Shown in the header while the live stream cannot reach the server.
    static let offline = "Offline"

    /// The categories the panel has room for, the largest first.
    static let spendingBarLimit = 6

    func presentLoadSpending(response: Home.LoadSpending.Response) {
        lastSpending = response
        let spending = response.spending
        let bars = (spending?.categories ?? []).prefix(Self.spendingBarLimit).map {
            Home.LoadSpending.ViewModel.Bar(category: $0.name, value: Double($0.amount.amountMinor), amount: formatting.amount($0.amount))
        }
        viewController?.displayLoadSpending(viewModel: .init(
            isShown: response.isShown,
            title: "Spending" + (spending.map { " · " + monthName($0.month) } ?? ""),
            bars: bars,
            summary: spending.map(spendingSummary) ?? "",
            emptyText: bars.isEmpty ? spendingEmptyText(response) : nil
        ))
    }

    func presentSelectCategory(response: Home.SelectCategory.Response) {
        viewController?.displaySelectCategory(viewModel: .init(searchText: response.category))
    }

    /// `Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)`: the change in the first currency spent, against the
    /// same days of the month before (the days the server compared). With nothing spent on those days:
    /// `Spent $12.00 · nothing spent from November 1 to 2`.
    private func spendingSummary(_ spending: MonthlySpending) -> String {
        let spent = spending.totals.isEmpty ? "nothing yet" : spending.totals.map { formatting.amount($0) }.joined(separator: " + ")
        let days = spending.previousDays
        let month = monthName(spending.previousMonth)
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

    private func spendingEmptyText(_ response: Home.LoadSpending.Response) -> String {
        if response.isLoading { return "Loading spending…" }
        if let error = response.error { return formatting.message(for: error) ?? "Spending could not be loaded." }
        return response.spending == nil ? "" : "Nothing spent yet this month."
    }

    /// `November` for `2026-11`.
    private func monthName(_ month: String) -> String {
        guard let number = Int(month.suffix(2)), Self.monthNames.indices.contains(number - 1) else { return month }
        return Self.monthNames[number - 1]
    }

    private nonisolated static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private func cardRows(_ cards: [Card]) -> [Home.Update.ViewModel.CardRow] {
        if cards != shownCards.cards { shownCards = (cards, cards.map(cardRow)) }
        return shownCards.rows
    }

    /// `Skiff card · expires 11/30` and `Inactive.` with the prompt to activate: the status apart, so that a narrow
    /// line cuts the rest first.
    private func cardRow(_ card: Card) -> Home.Update.ViewModel.CardRow {
        let needsActivation = card.canBeActivated
        return .init(
            title: card.name,
            summary: formatting.cardOrigin(card),
            status: PromptedText(
                formatting.cardStatus(card) + (needsActivation ? "." : ""),
                prompts: needsActivation ? [KeyPrompt(.activateCard, "activate")] : []
            ),
            needsActivation: needsActivation
        )
    }

    /// Rows under month headings (`November 2026`); a date in another year than `today`'s says its year
    /// (`3 Dec 2025`).
    private func transactionRows(_ transactions: TransactionWindow, today: Date?) -> Home.Update.ViewModel.TransactionRows {
        let blurred = formatting.isBlurred
        let currentYear = today.map { formatting.localTime($0).year }
        return .init(
            transactions: transactions, blurred: blurred, currentYear: currentYear,
            heading: { month in Self.monthNames[month.month - 1] + " \(month.year)" }
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

    private func emptyText(_ state: Home.State) -> String? {
        guard state.transactions.isEmpty else { return nil }
        if state.activity == .loading { return "Loading transactions…" }
        if state.summary == nil && state.error != nil { return "Nothing to show yet." }
        guard !state.query.isEmpty else { return "No transactions yet." }
        if let category = state.category {
            return "No \(category.name) transactions in \(monthName(category.month, today: state.today))."
        }
        guard let limit = state.searchLimit else { return "No transactions match “\(state.query)”." }
        return "None of your newest \(formatting.count(limit)) transactions match “\(state.query)”; "
            + "type 3 or more characters to search all."
    }

    /// With no search, the title names the search key (the status bar has no room left for it at 100 columns, as
    /// the cards panel's names its own). With one, what matches: how many and what they add up to,
    /// `12 matching “coffee” · -$48.20`. While more pages remain, the count is what came so far (`50+`) and the
    /// total says so; the server's page tells no more than that.
    private func transactionsTitle(_ state: Home.State) -> String {
        guard !state.query.isEmpty else { return "Transactions · \(keys.label(for: .search)) to search" }
        let count = state.transactions.count
        let more = state.nextCursor != nil
        let counted = formatting.count(count) + (more ? "+" : "")
        let matching = if let category = state.category {
            "\(counted) in \(category.name) in \(monthName(category.month, today: state.today))"
        } else {
            "\(counted) matching “\(state.query)”" + (state.searchLimit.map { " in your newest \(formatting.count($0))" } ?? "")
        }
        guard count > 0, let totals = state.transactions.totals else { return matching }
        let total = totals.map { formatting.amount($0, showPlus: true) }.joined(separator: ", ")
        return matching + " · " + total + (more ? " so far" : "")
    }

    /// `November`, or `November 2025` when `today` is in another year: a month the server names as `2026-11`.
    private func monthName(_ month: String, today: Date?) -> String {
        guard let today, let year = Int(month.prefix(4)), year != formatting.localTime(today).year else { return monthName(month) }
        return monthName(month) + " \(year)"
    }

    private func banner(_ state: Home.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) {
            // Nothing to retry against: the message says what to do.
            if case .serverNotStarted = error { return BannerMessage(.error, text) }
            let retry = [KeyPrompt(.refresh, "retry")]
            guard let cachedAt = state.cachedAt else {
                if let problem = connectionProblem(error) { return BannerMessage(.error, problem, prompts: retry) }
                return BannerMessage(.error, text)
            }
            let offline = "Offline: showing data from \(formatting.dayAndTime(cachedAt))."
            return BannerMessage(.error, [offline, connectionProblem(error)].compactMap { $0 }.joined(separator: " "), prompts: retry)
        }
        if let notice = state.notice { return self.notice(notice) }
        if let cachedAt = state.cachedAt, state.activity == .loading {
            return BannerMessage(.info, "Showing data from \(formatting.dayAndTime(cachedAt)) · refreshing…")
        }
        return nil
    }

    private func notice(_ notice: Home.State.Notice) -> BannerMessage {
        switch notice {
        case .cardAdded(let card): return BannerMessage(.info, "\(card.name) added.")
        case .cardActivated(let card): return BannerMessage(.info, "Your Skiff card \(card.masked) is active.")
        case .unfreezeCardFirst:
            let freeze = keys.label(for: .freezeCard), cards = keys.label(for: .openCards)
            return BannerMessage(.info, "Your Skiff card is frozen. Unfreeze it first (\(freeze) on Cards, \(cards) from Home).")
        case .cardAlreadyActive: return BannerMessage(.info, "Your Skiff card is already active.")
        case .noCardToActivate: return BannerMessage(.info, "There is no Skiff card to activate yet.")
        case .moneyReceived(let money, let from, let isTopUp):
            return BannerMessage(.info, formatting.moneyReceived(money, from: from, isTopUp: isTopUp))
        }
    }

    /// What went wrong with the connection, where trying again may help.
    private func connectionProblem(_ error: NetworkError) -> String? {
        switch error {
        case .unreachable: "Can't reach the server."
        case .connectionLost: "The connection to the server broke."
        case .timeout: "The server is slow to answer."
        default: nil
        }
    }
}
