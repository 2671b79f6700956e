import TerminalUI

@MainActor
protocol LoginDisplayLogic: AnyObject {
    func displayLoad(viewModel: Login.Load.ViewModel)
    func displayValidateField(viewModel: Login.ValidateField.ViewModel)
    func displaySubmit(viewModel: Login.Submit.ViewModel)
    func displayThrottle(viewModel: Login.Throttle.ViewModel)
}

/// Country code, phone number and password; links to Register and Forgot password.
@MainActor
final class LoginViewController: SceneViewController, LoginDisplayLogic, SceneDisplay {
    var interactor: (any LoginBusinessLogic)?

    private lazy var screen = FormScreen<Login.Field>(intro: "Log in with your phone number and password.", owner: self)
    let countryCode = TextField.countryCode()
    let phoneNumber = TextField.phoneNumber()
    let password = SecureField(maxLength: 128)
    private lazy var logInButton = screen.makeActionButton("Log in")
    private lazy var registerButton = Button("Create an account") { [weak self] in self?.navigate(.register) }
    private lazy var forgotButton = Button("Forgot password") { [weak self] in self?.navigate(.forgotPassword) }
    private let hint = Label("", style: .muted, overflow: .wrap)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Log in", keys: keys)
        keyBindings = [
            bind(.submit, "log in") { [weak self] in self?.screen.submit() },
            // The same as Enter; the banner names it when a request could not reach the server.
            bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() },
            // "new account": the line has room for every key of the screen, the password's toggle too, at 100 columns.
            bind(.createAccount, "new account") { [weak self] in self?.navigate(.register) },
            bind(.forgotPassword) { [weak self] in self?.navigate(.forgotPassword) },
            bind(.quitWhileTyping) { [weak self] in self?.application?.quit() },
            bind(.showPassword) { [weak self] in self?.toggleFocusedSecureField() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        screen.addField(.password, "Password", password)
        screen.buttons.add(logInButton)
        screen.buttons.add(registerButton)
        screen.buttons.add(forgotButton)
        screen.stack.add(hint)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        screen.focusFirstEmpty()
    }

    private var form: Login.Form {
        Login.Form(countryCode: countryCode.text, phoneNumber: phoneNumber.text, password: password.text)
    }

    private func navigate(_ destination: Login.Navigate.Destination) {
        interactor?.navigate(request: .init(destination: destination, form: form))
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    // MARK: Display

    func displayLoad(viewModel: Login.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
        hint.text = viewModel.hint ?? ""
        hint.isHidden = viewModel.hint == nil
        password.clear()
        screen.show(viewModel.notice)
    }

    func displayValidateField(viewModel: Login.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: Login.Submit.ViewModel) {
        screen.display(viewModel, activity: "Logging in…")
    }

    func displayThrottle(viewModel: Login.Throttle.ViewModel) {
        screen.show(viewModel.banner)
    }
}
