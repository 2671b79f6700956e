@MainActor
protocol LockPresentationLogic: AnyObject {
    func presentLoad(response: Lock.Load.Response)
    func presentUnlock(response: Lock.Unlock.Response)
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

    func presentUnlock(response: Lock.Unlock.Response) {
        let viewModel: Lock.Unlock.ViewModel
        switch response {
        case .started:
            viewModel = .init(status: "Checking…", isError: false, clearsPassword: false)
        case .empty:
            viewModel = .init(status: "Enter your password.", isError: true, clearsPassword: false)
        case .refused(.validation):
            viewModel = .init(status: "That password is not right.", isError: true, clearsPassword: true)
        case .refused(let error):
            viewModel = .init(
                status: formatting.message(for: error), isError: error != .cancelled, clearsPassword: true
            )
        }
        viewController?.displayUnlock(viewModel: viewModel)
    }

    func presentLogout(response: Lock.Logout.Response) {
        viewController?.displayLogout(viewModel: .init(status: "Logging out…"))
    }
}
