import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class ActivateCardPresenterSpy: ActivateCardPresentationLogic {
    var loads: [ActivateCard.Load.Response] = []
    var submits: [ActivateCard.Submit.Response] = []
    func presentLoad(response: ActivateCard.Load.Response) { loads.append(response) }
    func presentSubmit(response: ActivateCard.Submit.Response) { submits.append(response) }
}

@MainActor
final class ActivateCardDisplaySpy: ActivateCardDisplayLogic {
    var loads: [ActivateCard.Load.ViewModel] = []
    var submits: [ActivateCard.Submit.ViewModel] = []
    func displayLoad(viewModel: ActivateCard.Load.ViewModel) { loads.append(viewModel) }
    func displaySubmit(viewModel: ActivateCard.Submit.ViewModel) { submits.append(viewModel) }
}

@MainActor
@Suite("ActivateCardInteractor", .timeLimit(.minutes(1)))
struct ActivateCardInteractorTests {
    let presenter = ActivateCardPresenterSpy()
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
        guard case .invalid([.last4: .last4]) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(worker.activationRequests.count == 0)
    }

    @Test("Enter with the last four sends a code and shows it in development")
    func sendCode() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(last4: "0005", code: "")))
        await tasks.settle()
        #expect(worker.activationRequests.all == ["c_issued"])
        #expect(sut.stage == .code)
        guard case .codeSent(Seeds.challenge, "135790") = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
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
        guard case .invalid([.code: .code(.malformed)]) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
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
        guard case .invalid([.last4: .server("These are not the card's last four digits.")]) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
    }
}

@MainActor
@Suite("ActivateCardPresenter")
struct ActivateCardPresenterTests {
    let display = ActivateCardDisplaySpy()
    func makeSUT() -> ActivateCardPresenter {
        let sut = ActivateCardPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("the title names the masked card")
    func load() {
        makeSUT().presentLoad(response: .init(card: Seeds.issuedCard))
        #expect(display.loads.last?.title == "Activate Visa •••• 0005")
    }

    @Test("code sent moves to the code stage with the development code")
    func codeSent() {
        makeSUT().presentSubmit(response: .codeSent(Seeds.challenge, developmentCode: "135790"))
        #expect(display.submits.last?.stage == .code)
        #expect(display.submits.last?.instructions == "We sent a 6-digit code to your phone. It works until 12:10.")
        #expect(display.submits.last?.banner == BannerMessage(.info, "Development server: the code is 135790"))
    }

    @Test("a refused code clears the code field")
    func refusedCode() {
        let sut = makeSUT()
        sut.presentSubmit(response: .codeSent(Seeds.challenge, developmentCode: nil))
        sut.presentSubmit(response: .failed(.validation(detail: "Wrong code", fields: [])))
        #expect(display.submits.last?.fieldErrors == [.code: "Wrong code"])
        #expect(display.submits.last?.clearCode == true)
    }
}
