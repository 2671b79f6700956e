import SkiffCore
import TerminalUI

@MainActor
protocol SendMoneyDisplayLogic: AnyObject {
    func displayLoad(viewModel: SendMoney.Load.ViewModel)
    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel)
    func displayFormatAmount(viewModel: SendMoney.FormatAmount.ViewModel)
    func displaySubmit(viewModel: SendMoney.Submit.ViewModel)
    func displayBack(viewModel: SendMoney.Back.ViewModel)
}

/// Send money: country code, phone number, amount and note, each checked as the person leaves it; Enter looks the
/// recipient up and shows the confirmation (with the password above the step-up amount), Enter on it sends, Esc
/// goes back to the form as it was; then the receipt, which Enter or Esc closes.
@MainActor
final class SendMoneyViewController: SceneViewController, SendMoneyDisplayLogic, SceneDisplay {
    var interactor: (any SendMoneyBusinessLogic)?

    private lazy var screen = FormScreen<SendMoney.Field>(intro: "", owner: self)
    let countryCode = TextField.countryCode()
    let phoneNumber = TextField.phoneNumber()
    /// Takes any character, so what is not a number is refused in words rather than dropped as it is typed.
    let amount = TextField(maxLength: 32)
    /// Longer than a note may be, so a note too long is refused in words and nothing typed is cut off.
    let note = TextField(maxLength: 1000)
    let password = SecureField(maxLength: 128)
    private lazy var sendButton = Button("Continue") { [weak self] in self?.screen.submit() }
    private(set) var stage: SendMoney.Stage = .form

    /// The fields of the form stage, hidden on the confirmation and the receipt.
    private let formFields: [SendMoney.Field] = [.countryCode, .phoneNumber, .amount, .note]

    init(keys: WalletKeys = .standard) {
        super.init(title: "Send money", keys: keys)
        bindKeys(for: .form)
    }

    /// Enter's words follow the stage: continue, send, back to Home.
    private func bindKeys(for stage: SendMoney.Stage) {
        let enter = switch stage {
        case .form: "continue"
        case .confirm: "send"
        case .receipt: "back to Home"
        }
        keyBindings = [
            bind(.submit, enter) { [weak self] in self?.screen.submit() },
            // The same as Enter; the banner names it when an answer did not come.
            bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        screen.addField(.amount, "Amount", amount)
        screen.addField(.note, "Note (optional)", note)
        screen.addField(.password, "Password", password)
        screen.setRowHidden(true, for: .password)
        screen.buttons.add(sendButton)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(phoneNumber)
    }

    isolated deinit {
        password.clear()
    }

    private var form: SendMoney.Form {
        SendMoney.Form(
            countryCode: countryCode.text, phoneNumber: phoneNumber.text, amount: amount.text, note: note.text,
            password: password.text
        )
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    // MARK: Display

    func displayLoad(viewModel: SendMoney.Load.ViewModel) {
        screen.intro.text = viewModel.instructions
        countryCode.text = viewModel.countryCode
    }

    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displayFormatAmount(viewModel: SendMoney.FormatAmount.ViewModel) {
        amount.text = viewModel.text
    }

    func displaySubmit(viewModel: SendMoney.Submit.ViewModel) {
        show(viewModel.stage)
        // The confirmation asks for the password (puts the cursor in it) only above the step-up amount.
        if stage == .confirm, viewModel.form.focus == .password { screen.setRowHidden(false, for: .password) }
        screen.display(viewModel.form, activity: stage == .form ? "Looking up the number…" : "Sending…")
        // On a confirmation without the password, and on the receipt, Enter presses the one button.
        if viewModel.form.focus == nil, !viewModel.form.isBusy, stage == .receipt || (stage == .confirm && password.isHidden) {
            focus(sendButton)
        }
    }

    func displayBack(viewModel: SendMoney.Back.ViewModel) {
        show(viewModel.stage)
        screen.intro.text = viewModel.instructions
        screen.show(nil)
        focus(phoneNumber)
    }

    /// Shows the fields of `stage`: the form's four; on the confirmation the password where the amount needs it;
    /// on the receipt none.
    private func show(_ stage: SendMoney.Stage) {
        guard stage != self.stage else { return }
        let leavingConfirmation = self.stage == .confirm
        self.stage = stage
        for field in formFields { screen.setRowHidden(stage != .form, for: field) }
        if stage != .confirm || leavingConfirmation {
            password.clear()
            screen.setRowHidden(true, for: .password)
        }
        bindKeys(for: stage)
        sendButton.title = switch stage {
        case .form: "Continue"
        case .confirm: "Send"
        case .receipt: "Done"
        }
    }
}
