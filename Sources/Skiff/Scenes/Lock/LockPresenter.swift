@MainActor
protocol LockPresentationLogic: AnyObject {
    func presentLoad(response: Lock.Load.Response)
    func presentValidateField(response: Lock.ValidateField.Response)
    func presentSubmit(response: Lock.Submit.Response)
    func presentLogout(response: Lock.Logout.Response)
}

/// Words the lock: whose session it is, and why the password was not accepted.
@MainActor
final class LockPresenter: LockPresentationLogic, ScenePresentation {
    weak var viewController: (any LockDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: Lock.Load.Response) {
        let whose = response.userName.isEmpty ? "your" : "\(response.userName)'s"
        let why = switch response.reason {
        case .idle: "Skiff locked itself after a while without a key."
        case .lockedBefore: "Skiff was locked when it last ran."
        case .server: "This session was locked: it went unused for a while, or another Skiff locked it."
        }
        viewController?.displayLoad(viewModel: .init(
            message: PromptedText(
                "\(why) Enter \(whose) password to go back where you were.",
                prompts: [KeyPrompt(.submit, "unlock"), KeyPrompt(.logoutWhileTyping, "log out")]
            )
        ))
    }

    func presentValidateField(response: Lock.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(field: response.field, message: response.problem.map(message)))
    }

    func presentSubmit(response: Lock.Submit.Response) {
        var viewModel = Lock.Submit.ViewModel()
        switch response {
        case .invalid(let problems):
            viewModel.fieldErrors = problems.mapValues(message)
            // A password the server refused goes; an empty one has nothing to clear.
            if problems.values.contains(where: \.isFromServer) { viewModel.clear = [.password] }
        case .started:
            viewModel.isBusy = true
        case .failed(.validation):
            viewModel.fieldErrors = [.password: "That password is not right."]
            viewModel.clear = [.password]
        case .failed(let error):
            viewModel.banner = formatting.message(for: error).map { BannerMessage(.error, $0) }
            viewModel.clear = [.password]
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }

    /// A field's problem, worded for the lock: the password is the person's own.
    private func message(_ problem: InputProblem) -> String {
        problem == .password(.empty) ? "Enter your password." : formatting.message(for: problem)
    }

    func presentLogout(response: Lock.Logout.Response) {
        viewController?.displayLogout(viewModel: .init(banner: BannerMessage(.info, "Logging out…")))
    }
}
