import SkiffCore

@MainActor
protocol CardsPresentationLogic: AnyObject {
    func presentUpdate(response: Cards.Update.Response)
    func presentRemove(response: Cards.Remove.Response)
}

/// Words the cards: brand and last four, owner, expiry and status; what `f`, `v` and `d` would do; the removal
/// question; what changed, here or on another screen.
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
        viewController?.displayRemove(viewModel: Self.removeQuestion(response.card))
    }

    /// The removal question, as Cards and Card detail ask it.
    static func removeQuestion(_ card: Card) -> Cards.Remove.ViewModel {
        .init(title: "Remove card", message: "Remove \(card.name) from your account?", confirm: "Remove", cancel: "Keep", cardID: card.id)
    }

    private func row(_ card: Card) -> Cards.Update.ViewModel.Row {
        return .init(
            title: card.name,
            detail: formatting.cardSummary(card),
            freezeHelp: card.frozen ? "unfreeze card" : "freeze card",
            canRemove: card.kind == .external,
            canActivate: card.canBeActivated,
            isFrozen: card.frozen
        )
    }

    private func banner(_ state: Cards.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) { return BannerMessage(.error, text) }
        return state.notice.map { BannerMessage(.info, Self.notice($0)) }
    }

    /// A change that landed, in words, as Cards and Card detail say it.
    static func notice(_ notice: Cards.Notice) -> String {
        switch notice {
        case .changed(let card): "\(card.name) \(card.frozen ? "frozen" : "unfrozen")."
        case .removed(let card): "\(card.name) removed."
        case .added(let card): "\(card.name) added."
        case .activated(let card): "\(card.name) is active."
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
