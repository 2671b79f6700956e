import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("TransactionDetailPresenter")
struct TransactionDetailPresenterTests {
    @Test("the presenter words merchant, amount, direction and date; a line with no reference shows none, not its row id")
    func presenter() {
        let display = TransactionDetailDisplayLogicSpy()
        let sut = TransactionDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        sut.presentLoad(response: .init(transaction: Seeds.transaction(4)))
        let vm = display.displayLoadCalls.last!
        #expect(vm.title == "Merchant 4")
        #expect(vm.heading == "-$12.50")
        #expect(!vm.isIncoming)
        #expect(vm.rows.map(\.value) == ["Merchant 4", "Money out", "Groceries", "22 Nov 2026 08:00", "USD"])
    }

    @Test("a transfer shows the sender's note after the merchant and its SKF- reference, as the receipt gave it")
    func noteAndReference() {
        let display = TransactionDetailDisplayLogicSpy()
        let sut = TransactionDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        var transaction = Seeds.transaction(4)
        transaction.note = "Rent for May"
        transaction.reference = "SKF-S1QPJ82A"
        sut.presentLoad(response: .init(transaction: transaction))
        let vm = display.displayLoadCalls.last!
        #expect(vm.rows.map(\.label) == ["Merchant", "Note", "Direction", "Category", "Date", "Currency", "Reference"])
        #expect(vm.rows[1].value == "Rent for May")
        #expect(vm.rows.last?.value == "SKF-S1QPJ82A")
        #expect(!vm.rows.contains { $0.value == transaction.id })
    }
}
