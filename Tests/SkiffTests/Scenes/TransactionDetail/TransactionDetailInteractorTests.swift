import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("TransactionDetailInteractor")
struct TransactionDetailInteractorTests {
    @Test("the interactor presents the transaction it was given and routes close")
    func interactor() {
        let presenter = TransactionDetailPresentationLogicSpy()
        let sut = TransactionDetailInteractor(presenter: presenter, transaction: Seeds.transaction(4))
        var closed = 0
        sut.route = { if case .back = $0 { closed += 1 } }
        sut.load(request: .init())
        sut.back(request: .init())
        #expect(presenter.presentLoadCalls.first?.transaction == Seeds.transaction(4))
        #expect(closed == 1)
    }
}
