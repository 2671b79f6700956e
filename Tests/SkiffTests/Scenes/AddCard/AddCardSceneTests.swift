import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class AddCardPresenterSpy: AddCardPresentationLogic {
    var loads: [AddCard.Load.Response] = []
    var numbers: [AddCard.NumberChanged.Response] = []
    var validations: [AddCard.ValidateField.Response] = []
    var submits: [AddCard.Submit.Response] = []
    var backs: [AddCard.Back.Response] = []
    func presentLoad(response: AddCard.Load.Response) { loads.append(response) }
    func presentNumberChanged(response: AddCard.NumberChanged.Response) { numbers.append(response) }
    func presentValidateField(response: AddCard.ValidateField.Response) { validations.append(response) }
    func presentSubmit(response: AddCard.Submit.Response) { submits.append(response) }
    func presentBack(response: AddCard.Back.Response) { backs.append(response) }
}

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
@Suite("AddCardInteractor", .timeLimit(.minutes(1)))
struct AddCardInteractorTests {
    let presenter = AddCardPresenterSpy()
    let worker = CardWorkerDouble.succeeding
    let tasks = TaskTracker()
    let form = AddCard.Form(number: "4242 4242 4242 4242", holderName: "ALEX RIVERA", expiry: "04/29", securityCode: "123")

    func makeSUT() -> AddCardInteractor {
        var counter = 0
        return AddCardInteractor(presenter: presenter, worker: worker, holderName: "Alex Rivera", clock: .immediate(), tasks: tasks) {
            counter += 1
            return "card-key-\(counter)"
        }
    }

    @Test("the holder name starts as the account's name in capitals")
    func load() {
        makeSUT().load(request: .init())
        #expect(presenter.loads.last?.holderName == "ALEX RIVERA")
    }

    @Test("the brand is known from the first digits")
    func brand() {
        let sut = makeSUT()
        sut.numberChanged(request: .init(digits: "4"))
        sut.numberChanged(request: .init(digits: "3782"))
        #expect(presenter.numbers.map(\.brand) == [.visa, .amex])
        #expect(presenter.numbers.last?.digitCount == 4)
    }

    @Test("Luhn, expiry, holder and CVC errors are reported per field")
    func invalid() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(number: "4242 4242 4242 4241", holderName: " ", expiry: "10/26", securityCode: "12")))
        guard case .invalid(let problems) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(problems == [
            .number: .cardNumber(.failsChecksum), .holderName: .holderName,
            .expiry: .expiry(.expired), .securityCode: .securityCode(.wrongLength(expected: 3)),
        ])
        #expect(sut.stage == .form)
    }

    @Test("Amex needs a 4-digit CVC")
    func amexCVC() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .securityCode, form: .init(number: "378282246310005", holderName: "A", expiry: "04/29", securityCode: "123")))
        #expect(presenter.validations.last?.problem == .securityCode(.wrongLength(expected: 4)))
    }

    @Test("a valid form goes to the confirmation showing only the last four")
    func confirm() {
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        guard case .confirm(.visa, "4242", let expiry, "ALEX RIVERA") = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(expiry.description == "04/29")
        #expect(sut.stage == .confirm)
        #expect(worker.adds.count == 0)
    }

    @Test("Enter on the confirmation adds the card and routes back with it")
    func add() async {
        var routes: [AddCardRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        #expect(worker.adds.last?.0.number.digits == "4242424242424242")
        #expect(worker.adds.last?.0.securityCode == "123")
        guard case .added(Seeds.externalCard) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(sut.pending == nil)
    }

    @Test("a retry after a timeout sends the same Idempotency-Key")
    func retrySameKey() async {
        worker.addResult.set(.failure(.timeout))
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        worker.addResult.set(.success(Seeds.externalCard))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        #expect(worker.adds.all.map(\.1) == ["card-key-1", "card-key-1"])
    }

    @Test("going back and changing the card gets a new key; unchanged keeps it")
    func editedCardNewKey() async {
        worker.addResult.set(.failure(.timeout))
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        sut.back(request: .init())
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        sut.back(request: .init())
        var changed = form
        changed.expiry = "05/29"
        sut.submit(request: .init(form: changed))
        sut.submit(request: .init(form: changed))
        await tasks.settle()
        #expect(worker.adds.all.map(\.1) == ["card-key-1", "card-key-1", "card-key-2"])
    }

    @Test("Esc cancels a running request, then steps back, then leaves and forgets the card")
    func back() async {
        var routes: [AddCardRoute] = []
        let gate = Gate()
        worker.gate = gate
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        sut.back(request: .init())
        await tasks.settle()
        #expect(sut.stage == .confirm)
        sut.back(request: .init())
        #expect(sut.stage == .form)
        #expect(presenter.backs.last?.stage == .form)
        sut.back(request: .init())
        guard case .back = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(sut.pending == nil)
    }

    @Test("a server refusal of a field returns to the form with it")
    func serverField() async {
        worker.addResult.set(.failure(.validation(detail: "Invalid card", fields: [FieldError(field: "cvc", message: "Wrong length.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        guard case .invalid(let problems) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(problems == [.securityCode: .server("Wrong length.")])
        #expect(sut.stage == .form)
    }
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
