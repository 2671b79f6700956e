import SkiffCore

@MainActor
protocol TransactionDetailPresentationLogic: AnyObject {
    func presentLoad(response: TransactionDetail.Load.Response)
}

/// Words one transaction: merchant, signed amount, the sender's note, full date and time, category, and the
/// reference its receipt gave.
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
        var rows: [TransactionDetail.Load.ViewModel.Row] = [
            .init(label: "Merchant", value: t.merchant),
            .init(label: "Direction", value: incoming ? "Money in" : "Money out"),
            .init(label: "Category", value: t.category),
            .init(label: "Date", value: formatting.dayAndTime(t.createdAt)),
            .init(label: "Currency", value: t.amount.currency),
        ]
        if let note = t.note { rows.insert(.init(label: "Note", value: note), at: 1) }
        // The reference a receipt gave, never the line's row id, which means nothing to a person.
        if let reference = t.reference { rows.append(.init(label: "Reference", value: reference)) }
        viewController?.displayLoad(viewModel: .init(
            title: t.merchant,
            heading: formatting.amount(t.amount, showPlus: true),
            rows: rows,
            isIncoming: incoming
        ))
    }
}
