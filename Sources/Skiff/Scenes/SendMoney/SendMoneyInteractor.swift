import TerminalUI

@MainActor
protocol SendMoneyBusinessLogic: FormBusinessLogic where Field == SendMoney.Field, Form == SendMoney.Form {
    func validateField(request: SendMoney.ValidateField.Request)
    func submit(request: SendMoney.Submit.Request)
    func back(request: SendMoney.Back.Request)
}

/// Where Send money sends the person next.
enum SendMoneyRoute: Sendable {
    /// The server took the form.
    case done
    case back
}

/// Checks the form, sends it through `send` on the app's tasks, and puts the server's refusals on their fields.
@MainActor
final class SendMoneyInteractor: SendMoneyBusinessLogic {
    private let presenter: any SendMoneyPresentationLogic
    /// The worker call that sends the form (the factory passes it).
    private let send: @Sendable (SendMoney.Form) async throws(NetworkError) -> Void
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    var route: (SendMoneyRoute) -> Void = { _ in }

    let inFlight: RequestInFlight

    init(
        presenter: any SendMoneyPresentationLogic, send: @escaping @Sendable (SendMoney.Form) async throws(NetworkError) -> Void,
        tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.send = send
        inFlight = RequestInFlight(tasks: tasks)
    }

    func validateField(request: SendMoney.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: Self.problems(in: request.form)))
    }

    func submit(request: SendMoney.Submit.Request) {
        guard !inFlight.isRunning,
              SendMoney.Submit.Response.passes(Self.problems(in: request.form), else: presenter.presentSubmit(response:))
        else { return }
        presenter.presentSubmit(response: .started)
        let form = request.form
        inFlight.call({ [send] () async throws(NetworkError) in
            try await send(form)
        }, then: { [weak self] in self?.finishSubmit($0) })
    }

    private func finishSubmit(_ result: Result<Void, NetworkError>) {
        switch result {
        case .success:
            presenter.presentSubmit(response: .succeeded(()))
            route(.done)
        case .failure(let error):
            presenter.presentSubmit(response: .refused(error))
        }
    }

    func back(request: SendMoney.Back.Request) {
        inFlight.cancel { route(.back) }
    }

    /// The app's own checks of each field, before anything is sent (the server checks again). The author writes
    /// them: `SendMoneyInteractorTests.problems` says what.
    static func problems(in form: SendMoney.Form) -> [SendMoney.Field: InputProblem] {
        [:]
    }
}
