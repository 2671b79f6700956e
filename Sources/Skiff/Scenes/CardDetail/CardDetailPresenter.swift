import SkiffCore

@MainActor
protocol CardDetailPresentationLogic: AnyObject {
    func presentLoad(response: CardDetail.Load.Response)
}

/// Words one card: masked number, holder, expiry, who issued it, its status and whether it is frozen.
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
            hint: card.frozen ? "Unfreeze it with \(keys.label(for: .freezeCard)) on Cards." : nil
        ))
    }
}
