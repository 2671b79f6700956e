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
        viewController?.displayUpdate(viewModel: .init(
            name: state.summary?.user.fullName ?? "",
            balance: "Balance " + (state.summary.map { formatting.amount($0.balance) } ?? "—"),
            unreadBadge: unread > 0 ? "\(unread) unread" : nil,
            cards: cardRows(state.cards),
            cardsEmptyText: state.cards.isEmpty && state.summary != nil
                ? PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]) : nil,
            transactions: transactionRows(state.transactions),
            transactionsTitle: transactionsTitle(state),
            emptyText: emptyText(state),
            banner: banner(state),
            isBusy: state.activity == .loading,
            isLoadingMore: state.activity == .loadingMore,
            connection: state.isOffline ? Self.offline : nil,
            rowsAddedAtTop: state.addedAtTop
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
    /// same days of the month before (the days the server compared).
    private func spendingSummary(_ spending: MonthlySpending) -> String {
        let spent = spending.totals.isEmpty ? "nothing yet" : spending.totals.map { formatting.amount($0) }.joined(separator: " + ")
        let days = spending.previousDays
        let previousDays = monthName(spending.previousMonth) + " "
            + (days.count == 1 ? "\(days.lowerBound)" : "\(days.lowerBound)–\(days.upperBound)")
        guard let currency = (spending.totals.first ?? spending.previousDaysTotals.first)?.currency,
              let previous = spending.previousDaysTotals.first(where: { $0.currency == currency }), previous.amountMinor > 0
        else { return "Spent \(spent) · nothing over \(previousDays)" }
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

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private func cardRows(_ cards: [Card]) -> [Home.Update.ViewModel.CardRow] {
        if cards != shownCards.cards { shownCards = (cards, cards.map(cardRow)) }
        return shownCards.rows
    }

    private func cardRow(_ card: Card) -> Home.Update.ViewModel.CardRow {
        let needsActivation = card.kind == .issued && card.status == .inactive && !card.frozen
        return .init(
            title: card.name,
            detail: PromptedText(
                formatting.cardSummary(card) + (needsActivation ? "." : ""),
                prompts: needsActivation ? [KeyPrompt(.activateCard, "activate")] : []
            ),
            needsActivation: needsActivation
        )
    }

    private func transactionRows(_ transactions: TransactionWindow) -> Home.Update.ViewModel.TransactionRows {
        let blurred = formatting.isBlurred
        return .init(transactions: transactions, blurred: blurred) { [formatting] transaction in
            .init(
                // The note last, where the row cuts what does not fit.
                text: "\(formatting.shortDay(transaction.createdAt))  \(transaction.merchant) · \(transaction.category)"
                    + (transaction.note.map { " · “\($0)”" } ?? ""),
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
        guard let limit = state.searchLimit else { return "No transactions match “\(state.query)”." }
        return "None of your newest \(formatting.count(limit)) transactions match “\(state.query)”; "
            + "type 3 or more characters to search all."
    }

    /// With no search, the title names the keys that move money, as the cards panel's names its own: the status bar
    /// has no room for them at 100 columns.
    private func transactionsTitle(_ state: Home.State) -> String {
        guard !state.query.isEmpty else {
            return "Transactions · \(keys.label(for: .sendMoney)) send · \(keys.label(for: .topUp)) top up"
        }
        guard let limit = state.searchLimit else { return "Transactions matching “\(state.query)”" }
        return "Newest \(formatting.count(limit)) transactions matching “\(state.query)”"
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
        case .timeout: "The server is slow to answer."
        default: nil
        }
    }
}
