import TerminalUI

@MainActor
protocol LockDisplayLogic: AnyObject {
    func displayLoad(viewModel: Lock.Load.ViewModel)
    func displayUnlock(viewModel: Lock.Unlock.ViewModel)
    func displayLogout(viewModel: Lock.Logout.ViewModel)
}

/// Whose session is locked, a password field and a status line under the "Locked" breadcrumb: drawn instead of
/// every other screen while the app is locked.
@MainActor
final class LockViewController: SceneViewController, LockDisplayLogic, SceneDisplay {
    var interactor: (any LockBusinessLogic)?

    private let message = Label("", style: .muted, overflow: .wrap)
    private let form = Form()
    let password = SecureField(maxLength: 128)
    private let status = Label("", style: .muted, overflow: .wrap)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Locked", keys: keys)
        keyBindings = [
            bind(.submit, "unlock") { [weak self] in self?.unlock() },
            bind(.logoutWhileTyping) { [weak self] in self?.interactor?.logout(request: .init()) },
        ]
    }

    override func loadView() -> View {
        ContainerView(insets: EdgeInsets(top: 1, left: 2, right: 2))
    }

    override func viewDidLoad() {
        let stack = VStack(spacing: 1)
        stack.add(message)
        form.addField("Password", password)
        stack.add(form)
        stack.add(status)
        view.addSubview(stack)
        interactor?.load(request: .init())
        focus(password)
    }

    private func unlock() {
        interactor?.unlock(request: .init(password: password.text))
    }

    func displayLoad(viewModel: Lock.Load.ViewModel) {
        message.text = sentence(viewModel.message)
    }

    func displayUnlock(viewModel: Lock.Unlock.ViewModel) {
        if viewModel.clearsPassword { password.clear() }
        status.text = viewModel.status ?? ""
        status.style = viewModel.isError ? .errorText : .muted
    }

    func displayLogout(viewModel: Lock.Logout.ViewModel) {
        status.text = viewModel.status
        status.style = .muted
    }
}
