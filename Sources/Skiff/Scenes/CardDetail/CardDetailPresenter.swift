import SkiffCore

@MainActor
protocol CardDetailPresentationLogic: AnyObject {
    func presentLoad(response: CardDetail.Load.Response)
    func presentUpdate(response: CardDetail.Update.Response)
    func presentRemove(response: CardDetail.Remove.Response)
}

/// Words one card: masked number, holder, expiry, who issued it, its status and whether it is frozen; what `f` and
/// `d` would do; the removal question; a change on its way, landed or refused.
@MainActor
final class CardDetailPresenter: CardDetailPresentationLogic, ScenePresentation {
    weak var viewController: (any CardDetailDisplayLogic)?
    private let formatting: Formatting
    private let keys: WalletKeys

    init(formatting: Formatting = Formatting(), keys: WalletKeys = .standard) {
        self.formatting = formatting
        self.keys = keys
    }

    func presentLoad(response: CardDetail.Load.Response) {
        let card = response.card
        viewController?.displayLoad(viewModel: .init(
            title: card.name,
            heading: card.name,
            rows: [
                .init(label: "Brand", value: card.brand.displayName),
                .init(label: "Number", value: card.masked),
                .init(label: "Holder", value: card.holderName),
                .init(label: "Expires", value: formatting.expiry(month: card.expiryMonth, year: card.expiryYear)),
                .init(label: "Issued by", value: card.kind == .issued ? "Skiff" : "Another bank (added card)"),
                .init(label: "Status", value: formatting.activation(card.status)),
                .init(label: "Frozen", value: card.frozen ? "Yes: it cannot be used or activated" : "No"),
            ],
            hint: card.frozen ? "Unfreeze it with \(keys.label(for: .freezeCard))." : nil
        ))
    }

    func presentUpdate(response: CardDetail.Update.Response) {
        let state = response.state
        viewController?.displayUpdate(viewModel: .init(
            freezeHelp: state.card.frozen ? "unfreeze card" : "freeze card",
            canRemove: state.card.kind == .external,
            banner: banner(state),
            busyText: busyText(state.changing)
        ))
    }

    func presentRemove(response: CardDetail.Remove.Response) {
        viewController?.displayRemove(viewModel: CardsPresenter.removeQuestion(response.card))
    }

    private func banner(_ state: CardDetail.State) -> BannerMessage? {
        if let error = state.error, let text = formatting.message(for: error) { return BannerMessage(.error, text) }
        return state.notice.map { BannerMessage(.info, CardsPresenter.notice($0)) }
    }

    private func busyText(_ changing: Cards.Change?) -> String? {
        switch changing {
        case .freeze: "Freezing…"
        case .unfreeze: "Unfreezing…"
        case .remove: "Removing…"
        case nil: nil
        }
    }
}
