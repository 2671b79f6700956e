import SkiffCore

@MainActor
protocol CardsPresentationLogic: AnyObject {
    func presentUpdate(response: Cards.Update.Response)
    func presentRemove(response: Cards.Remove.Response)
}

/// Words the cards: brand and last four, owner, expiry and status; what `f` and `d` would do; the removal question.
@MainActor
final class CardsPresenter: CardsPresentationLogic, ScenePresentation {
    weak var viewController: (any CardsDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentUpdate(response: Cards.Update.Response) {
        let state = response.state
        viewController?.displayUpdate(viewModel: .init(
            rows: state.cards.map(row),
            emptyText: state.cards.isEmpty ? (state.isLoading ? "Loading cards…" : "No cards yet.") : nil,
            banner: banner(state),
            busyText: busyText(state)
        ))
    }

    func presentRemove(response: Cards.Remove.Response) {
        let card = response.card
        viewController?.displayRemove(viewModel: .init(
            title: "Remove card",
            message: "Remove \(card.name) from your account?",
            confirm: "Remove", cancel: "Keep", cardID: card.id
        ))
    }

    private func row(_ card: Card) -> Cards.Update.ViewModel.Row {
        return .init(
            title: card.name,
            detail: formatting.cardSummary(card),
            freezeHelp: card.frozen ? "unfreeze card" : "freeze card",
            canRemove: card.kind == .external,
            isFrozen: card.frozen
        )
    }

    private func banner(_ state: Cards.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) { return BannerMessage(.error, text) }
        return state.notice.map { BannerMessage(.info, notice($0)) }
    }

    private func notice(_ notice: Cards.Notice) -> String {
        switch notice {
        case .changed(let card): "\(card.name) \(card.frozen ? "frozen" : "unfrozen")."
        case .removed(let card): "\(card.name) removed."
        }
    }

    private func busyText(_ state: Cards.State) -> String? {
        switch state.changing {
        case .freeze: "Freezing…"
        case .unfreeze: "Unfreezing…"
        case .remove: "Removing…"
        case nil: state.isLoading ? "Loading…" : nil
        }
    }
}
