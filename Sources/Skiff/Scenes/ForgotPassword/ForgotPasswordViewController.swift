import TerminalUI

@MainActor
protocol ForgotPasswordDisplayLogic: AnyObject {
    func displayLoad(viewModel: ForgotPassword.Load.ViewModel)
    func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel)
    func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel)
}

/// The phone number first; then the code sent to it and a new password.
@MainActor
final class ForgotPasswordViewController: SceneViewController, ForgotPasswordDisplayLogic, SceneDisplay {
    var interactor: (any ForgotPasswordBusinessLogic)?

    private lazy var screen = FormScreen<ForgotPassword.Field>(
        intro: "Enter your phone number and we will text you a code to set a new password.", owner: self
    )
    let countryCode = TextField.countryCode()
    let phoneNumber = TextField.phoneNumber()
    let code = TextField.digits(maxLength: 6)
    let newPassword = SecureField(maxLength: 128)
    let confirmPassword = SecureField(maxLength: 128)
    private lazy var submitButton = screen.makeActionButton("Send code")

    init(keys: WalletKeys = .standard) {
        super.init(title: "Forgot password", keys: keys)
        keyBindings = [
            bind(.submit) { [weak self] in self?.screen.submit() },
            // The same as Enter; the banner names it when a request could not reach the server.
            bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() },
        ]
    }

    /// The fields that appear once the code was sent.
    private let resetFields: [ForgotPassword.Field] = [.code, .newPassword, .confirmPassword]

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.currentForm }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        screen.addField(.code, "Code", code)
        screen.addField(.newPassword, "New password", newPassword)
        screen.addField(.confirmPassword, "Repeat password", confirmPassword)
        for field in resetFields { screen.setRowHidden(true, for: field) }
        screen.buttons.add(submitButton)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        screen.focusFirstEmpty()
    }

    private var currentForm: ForgotPassword.Form {
        ForgotPassword.Form(
            countryCode: countryCode.text, phoneNumber: phoneNumber.text, code: code.text,
            newPassword: newPassword.text, confirmPassword: confirmPassword.text
        )
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: ForgotPassword.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
    }

    func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel) {
        if viewModel.stage == .reset && code.isHidden {
            for field in resetFields { screen.setRowHidden(false, for: field) }
            countryCode.isEnabled = false
            phoneNumber.isEnabled = false
            submitButton.title = "Set new password"
            // The new password's fields are there now, and the key that shows what is typed in them.
            keyBindings.append(bind(.showPassword) { [weak self] in self?.toggleFocusedSecureField() })
        }
        screen.display(viewModel.form, activity: "Working…")
    }
}
