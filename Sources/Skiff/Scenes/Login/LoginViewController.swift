import TerminalUI

@MainActor
public protocol LoginDisplayLogic: AnyObject {
    func displayLoad(viewModel: Login.Load.ViewModel)
    func displayValidateField(viewModel: Login.ValidateField.ViewModel)
    func displaySubmit(viewModel: Login.Submit.ViewModel)
    func displayThrottle(viewModel: Login.Throttle.ViewModel)
}

/// Country code, phone number and password; links to Register and Forgot password.
@MainActor
public final class LoginViewController: SceneViewController, LoginDisplayLogic {
    public var interactor: (any LoginBusinessLogic)?

    private let screen = FormScreen(intro: "Log in with your phone number and password.")
    let countryCode = TextField(maxLength: 4)
    let phoneNumber = TextField(maxLength: 20)
    let password = SecureField(maxLength: 128)
    private lazy var logInButton = Button("Log in") { [weak self] in self?.submit() }
    private lazy var registerButton = Button("Create an account") { [weak self] in self?.navigate(.register) }
    private lazy var forgotButton = Button("Forgot password") { [weak self] in self?.navigate(.forgotPassword) }
    private let hint = Label("", style: .muted, overflow: .wrap)
    private var isBusy = false

    public init() {
        super.init(title: "Log in")
        countryCode.inputFilter = { $0 == "+" || ("0"..."9").contains($0) }
        phoneNumber.inputFilter = { ("0"..."9").contains($0) || " -().".contains($0) }
        keyBindings = [
            KeyBinding(.enter, "log in") { [weak self] in self?.submit() },
            KeyBinding(.ctrl("r"), "retry") { [weak self] in self?.submit() },
            KeyBinding(.ctrl("n"), "create account") { [weak self] in self?.navigate(.register) },
            KeyBinding(.ctrl("p"), "forgot password") { [weak self] in self?.navigate(.forgotPassword) },
            KeyBinding(.ctrl("q"), "quit") { [weak self] in self?.application?.quit() },
        ]
    }

    public override func viewDidLoad() {
        screen.form.addField("Country code", countryCode)
        screen.form.addField("Phone number", phoneNumber)
        screen.form.addField("Password", password)
        for field in [countryCode, phoneNumber, password] {
            field.onSubmit = { [weak self] in self?.submit() }
        }
        screen.buttons.add(logInButton)
        screen.buttons.add(registerButton)
        screen.buttons.add(forgotButton)
        screen.stack.add(hint)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(phoneNumber)
    }

    private var form: Login.Form {
        Login.Form(countryCode: countryCode.text, phoneNumber: phoneNumber.text, password: password.text)
    }

    private func field(_ field: Login.Field) -> TextField {
        switch field {
        case .countryCode: countryCode
        case .phoneNumber: phoneNumber
        case .password: password
        }
    }

    private func submit() {
        guard !isBusy else { return }
        interactor?.submit(request: .init(form: form))
    }

    private func navigate(_ destination: Login.Navigate.Destination) {
        interactor?.navigate(request: .init(destination: destination, form: form))
    }

    public override func focusDidMove(from previous: View?) {
        guard let left = Login.Field.allCases.first(where: { field($0) === previous }) else { return }
        interactor?.validateField(request: .init(field: left, form: form))
    }

    public override func escapePressed() {
        interactor?.cancel(request: .init())
    }

    // MARK: Display

    public func displayLoad(viewModel: Login.Load.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
        hint.text = viewModel.hint ?? ""
        hint.isHidden = viewModel.hint == nil
        password.clear()
        screen.show(viewModel.notice)
    }

    public func displayValidateField(viewModel: Login.ValidateField.ViewModel) {
        screen.form.setError(viewModel.message, for: field(viewModel.field))
    }

    public func displaySubmit(viewModel: Login.Submit.ViewModel) {
        isBusy = viewModel.isBusy
        screen.setBusy(viewModel.isBusy, "Logging in… (Esc cancels)")
        for field in Login.Field.allCases {
            screen.form.setError(viewModel.fieldErrors[field], for: self.field(field))
        }
        screen.show(viewModel.banner)
        if viewModel.clearPassword { password.clear() }
        if let focusField = viewModel.focus { focus(field(focusField)) }
    }

    public func displayThrottle(viewModel: Login.Throttle.ViewModel) {
        screen.show(viewModel.banner)
    }
}
