import SkiffCore

@MainActor
public protocol TransactionDetailBusinessLogic: AnyObject {
    func load(request: TransactionDetail.Load.Request)
    func close(request: TransactionDetail.Close.Request)
}

/// Hands the transaction Home passed in to the Presenter; no further I/O is needed.
@MainActor
public final class TransactionDetailInteractor: TransactionDetailBusinessLogic {
    private let presenter: any TransactionDetailPresentationLogic
    private let transaction: Transaction
    public var route: (TransactionDetailRoute) -> Void = { _ in }

    public init(presenter: any TransactionDetailPresentationLogic, transaction: Transaction) {
        self.presenter = presenter
        self.transaction = transaction
    }

    public func load(request: TransactionDetail.Load.Request) {
        presenter.presentLoad(response: .init(transaction: transaction))
    }

    public func close(request: TransactionDetail.Close.Request) {
        route(.close)
    }
}
