import SkiffCore
import Testing
@testable import Skiff

@MainActor
final class TransactionDetailDisplaySpy: TransactionDetailDisplayLogic {
    var loads: [TransactionDetail.Load.ViewModel] = []
    func displayLoad(viewModel: TransactionDetail.Load.ViewModel) { loads.append(viewModel) }
}

@MainActor
@Suite("TransactionDetailPresenter")
struct TransactionDetailPresenterTests {
    @Test("the presenter words merchant, amount, direction, date and reference")
    func presenter() {
        let display = TransactionDetailDisplaySpy()
        let sut = TransactionDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        sut.presentLoad(response: .init(transaction: Seeds.transaction(4)))
        let vm = display.loads.last!
        #expect(vm.title == "Merchant 4")
        #expect(vm.heading == "-$12.50")
        #expect(!vm.isIncoming)
        #expect(vm.rows.map(\.value) == ["Merchant 4", "Money out", "Groceries", "22 Nov 2026 08:00", "USD", "t_4"])
    }
}
