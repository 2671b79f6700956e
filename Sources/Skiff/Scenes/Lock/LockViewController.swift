import TerminalUI

@MainActor
protocol LockDisplayLogic: AnyObject {
    func displayLoad(viewModel: Lock.Load.ViewModel)
    func displayValidateField(viewModel: Lock.ValidateField.ViewModel)
    func displaySubmit(viewModel: Lock.Submit.ViewModel)
    func displayLogout(viewModel: Lock.Logout.ViewModel)
}

/// Whose session is locked and a password field under the "Locked" breadcrumb: drawn instead of every other
/// screen while the app is locked.
@MainActor
final class LockViewController: SceneViewController, LockDisplayLogic, SceneDisplay {
    var interactor: (any LockBusinessLogic)?

    private lazy var screen = FormScreen<Lock.Field>(intro: "", owner: self)
    let password = SecureField(maxLength: 128)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Locked", keys: keys)
        keyBindings = [
            bind(.submit, "unlock") { [weak self] in self?.unlock() },
            bind(.logoutWhileTyping) { [weak self] in self?.interactor?.logout(request: .init()) },
            bind(.showPassword) { [weak self] in self?.toggleFocusedSecureField() },
        ]
    }

    override func loadView() -> View {
        ContainerView(insets: EdgeInsets(top: 1, left: 2, right: 2))
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.password, "Password", password)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        focus(password)
    }

    private var form: Lock.Form {
        Lock.Form(password: password.text)
    }

    private func unlock() {
        screen.submit()
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: Lock.Load.ViewModel) {
        screen.intro.text = sentence(viewModel.message)
    }

    func displayValidateField(viewModel: Lock.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: Lock.Submit.ViewModel) {
        screen.display(viewModel, activity: "Checking…")
    }

    func displayLogout(viewModel: Lock.Logout.ViewModel) {
        screen.show(viewModel.banner)
    }
}
