import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Send money interactor", .timeLimit(.minutes(1)))
struct SendMoneyInteractorTests {
    let presenter = SendMoneyPresentationLogicSpy()
    let tasks = TaskTracker()
    /// The forms sent, and what sending answers.
    let sent = Recorder<SendMoney.Form>()
    let answer = Stubbed<Void>("the Send money send call")

    func makeSUT(gate: Gate? = nil) -> SendMoneyInteractor {
        SendMoneyInteractor(presenter: presenter, send: { [sent, answer] (form: SendMoney.Form) async throws(NetworkError) in
            sent.record(form)
            try await gate?.wait()
            try answer.get()
        }, tasks: tasks)
    }

    let filledForm = SendMoney.Form(
        countryCode: "country code",
        phoneNumber: "phone number",
        amount: "amount",
        note: "note",
    )

    @Test("the form's own checks")
    func problems() {
        Issue.record("""
            Write SendMoneyInteractor.problems(in:): the app's own check of each field (country code, phone number, amount and note) as an \
            InputProblem, then replace this test with one that shows a bad value of each field refused and \
            \(filledForm) accepted.
            """)
    }

    @Test("leaving a field checks that field")
    func validateField() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .countryCode, form: filledForm))
        #expect(presenter.presentValidateFieldCalls.map(\.field) == [.countryCode])
        #expect(presenter.presentValidateFieldCalls.last?.problem == SendMoneyInteractor.problems(in: filledForm)[.countryCode])
    }

    @Test("a form the checks accept is sent once, and the scene routes on")
    func submit() async {
        answer.set(.success(()))
        var routes: [SendMoneyRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: filledForm))
        await tasks.settle()
        #expect(sent.all == [filledForm])
        #expect(presenter.calls == ["presentSubmit", "presentSubmit"])
        guard case .started = presenter.presentSubmitCalls.first, case .succeeded = presenter.presentSubmitCalls.last,
              case .done = routes.last
        else {
            Issue.record("expected started, succeeded and .done; got \(presenter.presentSubmitCalls), \(routes)")
            return
        }
    }

    @Test("a field the server refuses is shown on that field")
    func serverFieldError() async {
        answer.set(.failure(.validation(detail: "Invalid", fields: [FieldError(field: "countryCode", message: "Not this one.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: filledForm))
        await tasks.settle()
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .invalid, got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.countryCode: .server("Not this one.")])
    }

    @Test("a call that fails is reported")
    func failure() async {
        answer.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.submit(request: .init(form: filledForm))
        await tasks.settle()
        guard case .failed(.unreachable) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .failed(.unreachable), got \(presenter.presentSubmitCalls)")
            return
        }
    }

    @Test("Enter while the form is being sent sends nothing more; Esc cancels it, and with nothing running leaves")
    func inFlight() async {
        var routes: [SendMoneyRoute] = []
        let sut = makeSUT(gate: Gate())
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: filledForm))
        sut.submit(request: .init(form: filledForm))
        sut.back(request: .init())
        await tasks.settle()
        #expect(sent.count == 1)
        #expect(routes.isEmpty)
        sut.back(request: .init())
        guard case .back = routes.last else {
            Issue.record("expected .back, got \(routes)")
            return
        }
    }
}
