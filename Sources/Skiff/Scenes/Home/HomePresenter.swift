import SkiffCore

@MainActor
protocol HomePresentationLogic: AnyObject {
    func presentUpdate(response: Home.Update.Response)
}

/// Turns Home's state into lines: the balance, masked cards, dated and signed amounts, and how fresh it all is.
@MainActor
final class HomePresenter: HomePresentationLogic, ScenePresentation {
    weak var viewController: (any HomeDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentUpdate(response: Home.Update.Response) {
        let state = response.state
        let unread = state.summary?.unreadNotifications ?? 0
        viewController?.displayUpdate(viewModel: .init(
            name: state.summary?.user.fullName ?? "",
            balance: "Balance " + (state.summary.map { $0.balance.formatted() } ?? "—"),
            unreadBadge: unread > 0 ? "\(unread) unread" : nil,
            cards: state.cards.map(cardRow),
            cardsEmptyText: state.cards.isEmpty && state.summary != nil
                ? PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]) : nil,
            transactions: state.transactions.map(transactionRow),
            transactionsTitle: state.query.isEmpty ? "Transactions" : "Transactions matching “\(state.query)”",
            emptyText: emptyText(state),
            banner: banner(state),
            isBusy: state.activity == .loading,
            isLoadingMore: state.activity == .loadingMore
        ))
    }

    private func cardRow(_ card: Card) -> Home.Update.ViewModel.CardRow {
        let owner = card.kind == .issued ? "Skiff card" : "Added card"
        let needsActivation = card.kind == .issued && card.status == .inactive && !card.frozen
        let status = formatting.cardStatus(card)
        return .init(
            title: "\(card.brand.displayName) \(card.masked)",
            detail: PromptedText(
                "\(owner) · expires \(formatting.expiry(month: card.expiryMonth, year: card.expiryYear)) · \(status)"
                    + (needsActivation ? "." : ""),
                prompts: needsActivation ? [KeyPrompt(.activateCard, "activate")] : []
            ),
            needsActivation: needsActivation
        )
    }

    private func transactionRow(_ transaction: Transaction) -> Home.Update.ViewModel.TransactionRow {
        .init(
            text: "\(formatting.shortDay(transaction.createdAt))  \(transaction.merchant) · \(transaction.category)",
            amount: transaction.amount.formatted(showPlus: true),
            isIncoming: transaction.amount.amountMinor > 0
        )
    }

    private func emptyText(_ state: Home.State) -> String? {
        guard state.transactions.isEmpty else { return nil }
        if state.activity == .loading { return "Loading transactions…" }
        if state.summary == nil && state.error != nil { return "Nothing to show yet." }
        return state.query.isEmpty ? "No transactions yet." : "No transactions match “\(state.query)”."
    }

    private func banner(_ state: Home.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) {
            let retry = [KeyPrompt(.refresh, "retry")]
            guard let cachedAt = state.cachedAt else {
                if let problem = connectionProblem(error) { return BannerMessage(.error, problem, prompts: retry) }
                return BannerMessage(.error, text)
            }
            let offline = "Offline: showing data from \(formatting.dayAndTime(cachedAt))."
            return BannerMessage(.error, [offline, connectionProblem(error)].compactMap { $0 }.joined(separator: " "), prompts: retry)
        }
        if let notice = state.notice { return BannerMessage(.info, notice) }
        if let cachedAt = state.cachedAt, state.activity == .loading {
            return BannerMessage(.info, "Showing data from \(formatting.dayAndTime(cachedAt)) · refreshing…")
        }
        return nil
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
