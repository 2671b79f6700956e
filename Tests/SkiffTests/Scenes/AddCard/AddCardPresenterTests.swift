import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class AddCardDisplaySpy: AddCardDisplayLogic {
    var loads: [AddCard.Load.ViewModel] = []
    var numbers: [AddCard.NumberChanged.ViewModel] = []
    var validations: [AddCard.ValidateField.ViewModel] = []
    var submits: [AddCard.Submit.ViewModel] = []
    var backs: [AddCard.Back.ViewModel] = []
    func displayLoad(viewModel: AddCard.Load.ViewModel) { loads.append(viewModel) }
    func displayNumberChanged(viewModel: AddCard.NumberChanged.ViewModel) { numbers.append(viewModel) }
    func displayValidateField(viewModel: AddCard.ValidateField.ViewModel) { validations.append(viewModel) }
    func displaySubmit(viewModel: AddCard.Submit.ViewModel) { submits.append(viewModel) }
    func displayBack(viewModel: AddCard.Back.ViewModel) { backs.append(viewModel) }
}

@MainActor
@Suite("AddCardPresenter")
struct AddCardPresenterTests {
    let display = AddCardDisplaySpy()
    func makeSUT() -> AddCardPresenter {
        let sut = AddCardPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("brand name, grouping and lengths follow the number")
    func brand() {
        let sut = makeSUT()
        sut.presentNumberChanged(response: .init(brand: .amex, digitCount: 2))
        #expect(display.numbers.last == .init(brandName: "American Express", grouping: [4, 6, 5], maxDigits: 15, securityCodeLength: 4))
        sut.presentNumberChanged(response: .init(brand: .unknown, digitCount: 0))
        #expect(display.numbers.last?.brandName == nil)
        #expect(display.numbers.last?.maxDigits == 19)
    }

    @Test("the confirmation masks the number")
    func confirm() throws {
        let expiry = try CardExpiry(month: 4, year: 2029, now: Seeds.now)
        makeSUT().presentSubmit(response: .confirm(brand: .visa, last4: "4242", expiry: expiry, holderName: "ALEX RIVERA"))
        let vm = display.submits.last!
        #expect(vm.stage == .confirm)
        #expect(vm.confirmRows.map(\.value) == ["Visa •••• 4242", "ALEX RIVERA", "04/29"])
    }

    @Test("the flow ending wipes the number and security code from the fields")
    func wipe() {
        let sut = makeSUT()
        sut.presentSubmit(response: .added(Seeds.externalCard))
        #expect(display.submits.last?.clearSecrets == true)
        sut.presentBack(response: .init(stage: .form, leaving: true))
        #expect(display.backs.last?.clearSecrets == true)
        sut.presentBack(response: .init(stage: .form))
        #expect(display.backs.last?.clearSecrets == false)
    }

    @Test("a retry while the first attempt still runs is not called a duplicate")
    func stillRunning() {
        makeSUT().presentSubmit(response: .failed(.stillRunning))
        #expect(display.submits.last?.banner?.text.contains("still being added") == true)
    }

    @Test("a duplicate card and a timeout each get their own words")
    func errors() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.conflict(detail: "duplicate")))
        #expect(display.submits.last?.banner == BannerMessage(.error, "This card is already in your wallet."))
        sut.presentSubmit(response: .failed(.timeout))
        #expect(display.submits.last?.banner?.text.contains("will not be added twice") == true)
    }

    @Test("field problems return to the form and focus the first")
    func invalid() {
        makeSUT().presentSubmit(response: .invalid([.expiry: .expiry(.expired), .number: .cardNumber(.failsChecksum)]))
        #expect(display.submits.last?.stage == .form)
        #expect(display.submits.last?.focus == .number)
        #expect(display.submits.last?.fieldErrors[.expiry] == "This card has expired.")
    }
}
