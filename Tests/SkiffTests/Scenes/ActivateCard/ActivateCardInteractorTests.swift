import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("ActivateCardInteractor", .timeLimit(.minutes(3)))
struct ActivateCardInteractorTests {
    let presenter = ActivateCardPresentationLogicSpy()
    let worker = CardWorkerDouble.succeeding
    let outbox = OutboxDouble(code: "135790")
    let tasks = TaskTracker()

    func makeSUT() -> ActivateCardInteractor {
        ActivateCardInteractor(
            presenter: presenter, worker: worker, codes: DevelopmentCodes(outbox: outbox, clock: .immediate()),
            card: Seeds.issuedCard, phoneE164: "+12025550143", tasks: tasks
        )
    }

    @Test("the last four must be four digits before a code is asked for")
    func last4() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(last4: "12a", code: "")))
        guard case .invalid([.last4: .last4(.malformed)]) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(worker.activationRequests.count == 0)
    }

    @Test("Enter with the last four sends a code and shows it in development")
    func sendCode() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(last4: "0005", code: "")))
        await tasks.settle()
        #expect(worker.activationRequests.all.map(\.cardID) == ["c_issued"])
        #expect(worker.activationRequests.all.map(\.last4) == ["0005"], "the last four go with the request, for the server to check")
        #expect(sut.stage == .code)
        #expect(presenter.presentSubmitCalls.map(\.stage) == [.last4, .code], "the code's answer is at the code stage")
        guard case .succeeded(.codeSent(Seeds.challenge, "135790")) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(outbox.asked.last?.purpose == "card-activation")
    }

    @Test("the code activates the card and routes back with it")
    func activate() async {
        var routes: [ActivateCardRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: .init(last4: "0005", code: "")))
        await tasks.settle()
        sut.submit(request: .init(form: .init(last4: "0005", code: "13579")))
        guard case .invalid([.code: .code(.malformed)]) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        sut.submit(request: .init(form: .init(last4: "0005", code: "135790")))
        await tasks.settle()
        #expect(worker.activations.last?.cardID == "c_issued")
        #expect(worker.activations.last?.last4 == "0005")
        #expect(worker.activations.last?.verificationId == "v_1")
        guard case .activated(let card) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(card.status == .active)
    }

    @Test("a wrong last four or code is reported on the field")
    func refused() async {
        worker.activateResult.set(.failure(.validation(detail: "Wrong", fields: [FieldError(field: "last4", message: "These are not the card's last four digits.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(last4: "1111", code: "")))
        await tasks.settle()
        sut.submit(request: .init(form: .init(last4: "1111", code: "135790")))
        await tasks.settle()
        guard case .invalid([.last4: .server("These are not the card's last four digits.")]) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
    }

    @Test("leaving a field checks it: the last four at first, the code once it was sent")
    func validateField() async {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .last4, form: .init(last4: "12", code: "")))
        sut.validateField(request: .init(field: .code, form: .init(last4: "0005", code: "")))
        #expect(presenter.presentValidateFieldCalls.map(\.problem) == [.last4(.malformed), nil])
        sut.submit(request: .init(form: .init(last4: "0005", code: "")))
        await tasks.settle()
        sut.validateField(request: .init(field: .code, form: .init(last4: "0005", code: "13")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == .code(.malformed))
    }

    @Test("last four digits the server refuses before sending a code stay on that field; no code, still the first stage")
    func last4RefusedBeforeCode() async {
        worker.activationResult.set(.failure(.validation(
            detail: "Correct the fields listed in errors and try again.",
            fields: [FieldError(field: "last4", message: CardLastFour.Problem.mismatch.message)]
        )))
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(last4: "1111", code: "")))
        await tasks.settle()
        #expect(worker.activationRequests.all.map(\.last4) == ["1111"])
        #expect(sut.stage == .last4)
        #expect(presenter.presentSubmitCalls.last?.stage == .last4)
        guard case .invalid([.last4: .server(CardLastFour.Problem.mismatch.message)]) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(worker.activations.count == 0)
        worker.activationResult.set(.success(Seeds.challenge))
        sut.submit(request: .init(form: .init(last4: "0005", code: "")))
        await tasks.settle()
        #expect(sut.stage == .code, "corrected, the code is sent")
    }
}
