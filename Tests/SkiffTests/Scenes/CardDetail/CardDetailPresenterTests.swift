import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Card detail presenter")
struct CardDetailPresenterTests {
    let display = CardDetailDisplayLogicSpy()

    func makeSUT() -> CardDetailPresenter {
        let sut = CardDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("the card in full: masked number, holder, expiry, issuer, status, not frozen")
    func issued() {
        makeSUT().presentLoad(response: .init(card: Seeds.issuedCard))
        let vm = display.displayLoadCalls.last!
        #expect(vm.title == "Visa •••• 0005")
        #expect(vm.heading == "Visa •••• 0005")
        #expect(vm.rows.map(\.label) == ["Brand", "Number", "Holder", "Expires", "Issued by", "Status", "Frozen"])
        #expect(vm.rows.map(\.value) == ["Visa", "•••• 0005", "ALEX RIVERA", "11/30", "Skiff", "Inactive", "No"])
        #expect(vm.hint == nil)
    }

    @Test("a frozen added card says so and how to unfreeze it")
    func frozen() {
        var card = Seeds.externalCard
        card.frozen = true
        makeSUT().presentLoad(response: .init(card: card))
        let vm = display.displayLoadCalls.last!
        #expect(vm.rows.map(\.value) == [
            "Visa", "•••• 4242", "ALEX RIVERA", "04/29", "Another bank (added card)", "Active",
            "Yes: it cannot be used or activated",
        ])
        #expect(vm.hint == "Unfreeze it with f on Cards.")
    }
}
