import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("AddCardPresenter")
struct AddCardPresenterTests {
    let display = AddCardDisplayLogicSpy()
    func makeSUT() -> AddCardPresenter {
        let sut = AddCardPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("brand name, grouping and lengths follow the number")
    func brand() {
        let sut = makeSUT()
        sut.presentNumberChanged(response: .init(brand: .amex, digitCount: 2))
        #expect(display.displayNumberChangedCalls.last == .init(brandName: "American Express", grouping: [4, 6, 5], maxDigits: 15, securityCodeLength: 4))
        sut.presentNumberChanged(response: .init(brand: .unknown, digitCount: 0))
        #expect(display.displayNumberChangedCalls.last?.brandName == nil)
        #expect(display.displayNumberChangedCalls.last?.maxDigits == 19)
    }

    @Test("the confirmation masks the number")
    func confirm() throws {
        let expiry = try CardExpiry(month: 4, year: 2029, now: Seeds.now)
        makeSUT().presentSubmit(response: .init(.succeeded(.confirm(brand: .visa, last4: "4242", expiry: expiry, holderName: "ALEX RIVERA")), at: .confirm))
        let vm = display.displaySubmitCalls.last!
        #expect(vm.stage == .confirm)
        #expect(vm.confirmation?.title == "Add Visa •••• 4242 to your wallet?")
        #expect(vm.confirmation?.rows.map(\.value) == ["Visa •••• 4242", "ALEX RIVERA", "04/29"])
    }

    @Test("the flow ending wipes the number and security code from the fields")
    func wipe() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.succeeded(.added(Seeds.externalCard)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.clearSecrets == true)
        // The screen goes in the same turn: Home words the card added, not this screen.
        #expect(display.displaySubmitCalls.last?.banner == nil)
        sut.presentBack(response: .init(stage: .form, leaving: true))
        #expect(display.displayBackCalls.last?.clearSecrets == true)
        sut.presentBack(response: .init(stage: .form))
        #expect(display.displayBackCalls.last?.clearSecrets == false)
    }

    @Test("a retry while the first attempt still runs is not called a duplicate")
    func stillRunning() {
        makeSUT().presentSubmit(response: .init(.failed(.stillRunning), at: .confirm))
        #expect(display.displaySubmitCalls.last?.banner?.text.contains("still being added") == true)
    }

    @Test("a card already on this or another account is said in the server's words; a timeout gets its own")
    func errors() {
        let sut = makeSUT()
        let another = "A card can be on one Skiff account only. Remove it from the other account first."
        sut.presentSubmit(response: .init(.failed(.conflict(detail: another)), at: .confirm))
        #expect(display.displaySubmitCalls.last?.banner == BannerMessage(.error, another))
        sut.presentSubmit(response: .init(.failed(.timeout), at: .confirm))
        #expect(display.displaySubmitCalls.last?.stage == .confirm, "a failure keeps the confirmation")
        #expect(display.displaySubmitCalls.last?.banner?.text.contains("will not be added twice") == true)
    }

    @Test("field problems return to the form and focus the first")
    func invalid() {
        makeSUT().presentSubmit(response: .init(.invalid([.expiry: .expiry(.expired), .number: .cardNumber(.failsChecksum)]), at: .form))
        #expect(display.displaySubmitCalls.last?.stage == .form)
        #expect(display.displaySubmitCalls.last?.focus == .number)
        #expect(display.displaySubmitCalls.last?.fieldErrors[.expiry] == "This card has expired.")
    }
}
