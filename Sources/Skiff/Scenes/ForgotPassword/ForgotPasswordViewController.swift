import TerminalUI

@MainActor
public protocol ForgotPasswordDisplayLogic: AnyObject {
    func displayLoad(viewModel: ForgotPassword.Load.ViewModel)
    func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel)
    func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel)
}

/// The phone number first; then the code sent to it and a new password.
@MainActor
public final class ForgotPasswordViewController: SceneViewController, ForgotPasswordDisplayLogic {
    public var interactor: (any ForgotPasswordBusinessLogic)?

    private let screen = FormScreen(intro: "Enter your phone number and we will text you a code to set a new password.")
    let countryCode = TextField(maxLength: 4)
    let phoneNumber = TextField(maxLength: 20)
    let code = TextField.digits(maxLength: 6)
    let newPassword = SecureField(maxLength: 128)
    let confirmPassword = SecureField(maxLength: 128)
    private lazy var submitButton = Button("Send code") { [weak self] in self?.submit() }
    private var isBusy = false

    public init() {
        super.init(title: "Forgot password")
        countryCode.inputFilter = { $0 == "+" || ("0"..."9").contains($0) }
        phoneNumber.inputFilter = { ("0"..."9").contains($0) || " -().".contains($0) }
        keyBindings = [
            KeyBinding(.enter, "continue") { [weak self] in self?.submit() },
            KeyBinding(.ctrl("r"), "retry") { [weak self] in self?.submit() },
        ]
    }

    private var fields: [(ForgotPassword.Field, TextField)] {
        [(.countryCode, countryCode), (.phoneNumber, phoneNumber), (.code, code), (.newPassword, newPassword), (.confirmPassword, confirmPassword)]
    }

    private var resetFields: [(String, TextField)] {
        [("Code", code), ("New password", newPassword), ("Repeat password", confirmPassword)]
    }

    public override func viewDidLoad() {
        screen.form.addField("Country code", countryCode)
        screen.form.addField("Phone number", phoneNumber)
        for (label, field) in resetFields {
            screen.form.addField(label, field)
            screen.form.setRowHidden(true, for: field)
        }
        for (_, field) in fields { field.onSubmit = { [weak self] in self?.submit() } }
        screen.buttons.add(submitButton)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(phoneNumber)
    }

    private var currentForm: ForgotPassword.Form {
        ForgotPassword.Form(
            countryCode: countryCode.text, phoneNumber: phoneNumber.text, code: code.text,
            newPassword: newPassword.text, confirmPassword: confirmPassword.text
        )
    }

    private func submit() {
        guard !isBusy else { return }
        interactor?.submit(request: .init(form: currentForm))
    }

    public override func focusDidMove(from previous: View?) {
        guard let left = fields.first(where: { $0.1 === previous })?.0 else { return }
        interactor?.validateField(request: .init(field: left, form: currentForm))
    }

    public override func escapePressed() {
        interactor?.back(request: .init())
    }

    public func displayLoad(viewModel: ForgotPassword.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
    }

    public func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel) {
        guard let field = fields.first(where: { $0.0 == viewModel.field })?.1 else { return }
        screen.form.setError(viewModel.message, for: field)
    }

    public func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel) {
        isBusy = viewModel.isBusy
        screen.setBusy(viewModel.isBusy, "Working… (Esc cancels)")
        if viewModel.stage == .reset && code.isHidden {
            for (_, field) in resetFields { screen.form.setRowHidden(false, for: field) }
            countryCode.isEnabled = false
            phoneNumber.isEnabled = false
            submitButton.title = "Set new password"
        }
        if let instructions = viewModel.instructions { screen.intro.text = instructions }
        for (key, field) in fields { screen.form.setError(viewModel.fieldErrors[key], for: field) }
        screen.show(viewModel.banner)
        if viewModel.clearSecrets {
            code.clear()
            newPassword.clear()
            confirmPassword.clear()
        }
        if let key = viewModel.focus, let field = fields.first(where: { $0.0 == key })?.1 { focus(field) }
    }
}
