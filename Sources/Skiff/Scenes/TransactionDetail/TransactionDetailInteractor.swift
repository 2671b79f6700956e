import SkiffCore

@MainActor
protocol TransactionDetailBusinessLogic: AnyObject {
    func load(request: TransactionDetail.Load.Request)
    func back(request: TransactionDetail.Back.Request)
}

/// Where Transaction detail sends the person next.
enum TransactionDetailRoute: Sendable {
    case back
}

/// Hands the transaction Home passed in to the Presenter; no further I/O is needed.
@MainActor
final class TransactionDetailInteractor: TransactionDetailBusinessLogic {
    private let presenter: any TransactionDetailPresentationLogic
    private let transaction: Transaction
    var route: (TransactionDetailRoute) -> Void = { _ in }

    init(presenter: any TransactionDetailPresentationLogic, transaction: Transaction) {
        self.presenter = presenter
        self.transaction = transaction
    }

    func load(request: TransactionDetail.Load.Request) {
        presenter.presentLoad(response: .init(transaction: transaction))
    }

    func back(request: TransactionDetail.Back.Request) {
        route(.back)
    }
}
