import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("TransactionDetailPresenter")
struct TransactionDetailPresenterTests {
    @Test("the presenter words merchant, amount, direction, date and reference")
    func presenter() {
        let display = TransactionDetailDisplayLogicSpy()
        let sut = TransactionDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        sut.presentLoad(response: .init(transaction: Seeds.transaction(4)))
        let vm = display.displayLoadCalls.last!
        #expect(vm.title == "Merchant 4")
        #expect(vm.heading == "-$12.50")
        #expect(!vm.isIncoming)
        #expect(vm.rows.map(\.value) == ["Merchant 4", "Money out", "Groceries", "22 Nov 2026 08:00", "USD", "t_4"])
    }
}
