import TerminalUI

@MainActor
public protocol RegisterDisplayLogic: AnyObject {
    func displayLoad(viewModel: Register.Load.ViewModel)
    func displayValidateField(viewModel: Register.ValidateField.ViewModel)
    func displaySubmit(viewModel: Register.Submit.ViewModel)
}

/// Phone number, full name and a new password, typed twice.
@MainActor
public final class RegisterViewController: SceneViewController, RegisterDisplayLogic {
    public var interactor: (any RegisterBusinessLogic)?

    private let screen = FormScreen(intro: "Create an account. We will text a 6-digit code to your phone to check it is yours.")
    let countryCode = TextField(maxLength: 4)
    let phoneNumber = TextField(maxLength: 20)
    let fullName = TextField(maxLength: 100)
    let password = SecureField(maxLength: 128)
    let confirmPassword = SecureField(maxLength: 128)
    private lazy var sendButton = Button("Send code") { [weak self] in self?.submit() }
    private var isBusy = false

    public init() {
        super.init(title: "Create account")
        countryCode.inputFilter = { $0 == "+" || ("0"..."9").contains($0) }
        phoneNumber.inputFilter = { ("0"..."9").contains($0) || " -().".contains($0) }
        keyBindings = [
            KeyBinding(.enter, "send code") { [weak self] in self?.submit() },
            KeyBinding(.ctrl("r"), "retry") { [weak self] in self?.submit() },
        ]
    }

    private var fields: [(Register.Field, TextField)] {
        [(.countryCode, countryCode), (.phoneNumber, phoneNumber), (.fullName, fullName), (.password, password), (.confirmPassword, confirmPassword)]
    }

    public override func viewDidLoad() {
        screen.form.addField("Country code", countryCode)
        screen.form.addField("Phone number", phoneNumber)
        screen.form.addField("Full name", fullName)
        screen.form.addField("Password", password)
        screen.form.addField("Repeat password", confirmPassword)
        for (_, field) in fields { field.onSubmit = { [weak self] in self?.submit() } }
        screen.buttons.add(sendButton)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(phoneNumber.isEmpty ? phoneNumber : fullName)
    }

    private var form: Register.Form {
        Register.Form(
            countryCode: countryCode.text, phoneNumber: phoneNumber.text, fullName: fullName.text,
            password: password.text, confirmPassword: confirmPassword.text
        )
    }

    private func submit() {
        guard !isBusy else { return }
        interactor?.submit(request: .init(form: form))
    }

    public override func focusDidMove(from previous: View?) {
        guard let left = fields.first(where: { $0.1 === previous })?.0 else { return }
        interactor?.validateField(request: .init(field: left, form: form))
    }

    public override func escapePressed() {
        interactor?.cancel(request: .init())
    }

    isolated deinit {
        password.clear()
        confirmPassword.clear()
    }

    // MARK: Display

    public func displayLoad(viewModel: Register.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
    }

    public func displayValidateField(viewModel: Register.ValidateField.ViewModel) {
        guard let field = fields.first(where: { $0.0 == viewModel.field })?.1 else { return }
        screen.form.setError(viewModel.message, for: field)
    }

    public func displaySubmit(viewModel: Register.Submit.ViewModel) {
        isBusy = viewModel.isBusy
        screen.setBusy(viewModel.isBusy, "Sending a code… (Esc cancels)")
        for (key, field) in fields { screen.form.setError(viewModel.fieldErrors[key], for: field) }
        screen.show(viewModel.banner)
        if let key = viewModel.focus, let field = fields.first(where: { $0.0 == key })?.1 { focus(field) }
    }
}
