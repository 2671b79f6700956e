import SkiffCore

@MainActor
protocol TransactionDetailPresentationLogic: AnyObject {
    func presentLoad(response: TransactionDetail.Load.Response)
}

/// Words one transaction: merchant, signed amount, full date and time, category, reference.
@MainActor
final class TransactionDetailPresenter: TransactionDetailPresentationLogic, ScenePresentation {
    weak var viewController: (any TransactionDetailDisplayLogic)?
    private let formatting: Formatting
    private var lastLoad: TransactionDetail.Load.Response?

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
        formatting.privacy?.observe(self) { presenter in
            if let last = presenter.lastLoad { presenter.presentLoad(response: last) }
        }
    }

    func presentLoad(response: TransactionDetail.Load.Response) {
        lastLoad = response
        let t = response.transaction
        let incoming = t.amount.amountMinor > 0
        viewController?.displayLoad(viewModel: .init(
            title: t.merchant,
            heading: formatting.amount(t.amount, showPlus: true),
            rows: [
                .init(label: "Merchant", value: t.merchant),
                .init(label: "Direction", value: incoming ? "Money in" : "Money out"),
                .init(label: "Category", value: t.category),
                .init(label: "Date", value: formatting.dayAndTime(t.createdAt)),
                .init(label: "Currency", value: t.amount.currency),
                .init(label: "Reference", value: t.id),
            ],
            isIncoming: incoming
        ))
    }
}
