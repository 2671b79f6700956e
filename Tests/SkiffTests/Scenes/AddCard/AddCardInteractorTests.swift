import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("AddCardInteractor", .timeLimit(.minutes(3)))
struct AddCardInteractorTests {
    let presenter = AddCardPresentationLogicSpy()
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
        #expect(presenter.presentLoadCalls.last?.holderName == "ALEX RIVERA")
    }

    @Test("the brand is known from the first digits")
    func brand() {
        let sut = makeSUT()
        sut.numberChanged(request: .init(digits: "4"))
        sut.numberChanged(request: .init(digits: "3782"))
        #expect(presenter.presentNumberChangedCalls.map(\.brand) == [.visa, .amex])
        #expect(presenter.presentNumberChangedCalls.last?.digitCount == 4)
    }

    @Test("Luhn, expiry, holder and CVC errors are reported per field")
    func invalid() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(number: "4242 4242 4242 4241", holderName: " ", expiry: "10/26", securityCode: "12")))
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [
            .number: .cardNumber(.failsChecksum), .holderName: .holderName(.name(.empty)),
            .expiry: .expiry(.expired), .securityCode: .securityCode(.wrongLength(expected: 3)),
        ])
        #expect(sut.stage == .form)
    }

    @Test("Amex needs a 4-digit CVC")
    func amexCVC() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .securityCode, form: .init(number: "378282246310005", holderName: "A", expiry: "04/29", securityCode: "123")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == .securityCode(.wrongLength(expected: 4)))
    }

    @Test("a valid form goes to the confirmation showing only the last four")
    func confirm() {
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        guard case .succeeded(.confirm(.visa, "4242", let expiry, "ALEX RIVERA")) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(expiry.description == "04/29")
        #expect(sut.stage == .confirm)
        #expect(presenter.presentSubmitCalls.last?.stage == .confirm)
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
        #expect(presenter.presentBackCalls.last?.stage == .form)
        sut.back(request: .init())
        guard case .back = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(sut.pending == nil)
    }

    @Test("a server refusal of a field returns to the form with it")
    func serverField() async {
        worker.addResult.set(.failure(.validation(detail: "Invalid card", fields: [FieldError(field: "securityCode", message: "Wrong length.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: form))
        sut.submit(request: .init(form: form))
        await tasks.settle()
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.securityCode: .server("Wrong length.")])
        #expect(sut.stage == .form)
        #expect(presenter.presentSubmitCalls.last?.stage == .form, "the refusal is shown on the form")
    }
}
