import TerminalUI

@MainActor
protocol RegisterDisplayLogic: AnyObject {
    func displayLoad(viewModel: Register.Load.ViewModel)
    func displayValidateField(viewModel: Register.ValidateField.ViewModel)
    func displaySubmit(viewModel: Register.Submit.ViewModel)
}

/// Phone number, full name and a new password, typed twice.
@MainActor
final class RegisterViewController: SceneViewController, RegisterDisplayLogic, SceneDisplay {
    var interactor: (any RegisterBusinessLogic)?

    private lazy var screen = FormScreen<Register.Field>(
        intro: "Create an account. We will text a 6-digit code to your phone to check it is yours.", owner: self
    )
    let countryCode = TextField.countryCode()
    let phoneNumber = TextField.phoneNumber()
    let fullName = TextField(maxLength: 100)
    let password = SecureField(maxLength: 128)
    let confirmPassword = SecureField(maxLength: 128)
    private lazy var sendButton = screen.makeActionButton("Send code")

    init(keys: WalletKeys = .standard) {
        super.init(title: "Create account", keys: keys)
        keyBindings = [
            bind(.submit, "send code") { [weak self] in self?.screen.submit() },
            // The same as Enter; the banner names it when a request could not reach the server.
            bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() },
            bind(.showPassword) { [weak self] in self?.toggleFocusedSecureField() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        screen.addField(.fullName, "Full name", fullName)
        screen.addField(.password, "Password", password)
        screen.addField(.confirmPassword, "Repeat password", confirmPassword)
        screen.buttons.add(sendButton)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        screen.focusFirstEmpty()
    }

    private var form: Register.Form {
        Register.Form(
            countryCode: countryCode.text, phoneNumber: phoneNumber.text, fullName: fullName.text,
            password: password.text, confirmPassword: confirmPassword.text
        )
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    isolated deinit {
        password.clear()
        confirmPassword.clear()
    }

    // MARK: Display

    func displayLoad(viewModel: Register.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
    }

    func displayValidateField(viewModel: Register.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: Register.Submit.ViewModel) {
        screen.display(viewModel, activity: "Sending a code…")
    }
}
