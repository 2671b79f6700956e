import TerminalUI

@MainActor
protocol SendMoneyDisplayLogic: AnyObject {
    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel)
    func displaySubmit(viewModel: SendMoney.Submit.ViewModel)
}

/// Send money: country code, phone number, amount and note; each field is checked as the person leaves it, Enter sends the form.
@MainActor
final class SendMoneyViewController: SceneViewController, SendMoneyDisplayLogic, SceneDisplay {
    var interactor: (any SendMoneyBusinessLogic)?

    private lazy var screen = FormScreen<SendMoney.Field>(intro: "", owner: self)
    let countryCode = TextField(maxLength: 64)
    let phoneNumber = TextField(maxLength: 64)
    let amount = TextField(maxLength: 64)
    let note = TextField(maxLength: 64)
    private lazy var sendButton = Button("Send") { [weak self] in self?.screen.submit() }

    init() {
        super.init(title: "Send money")
        keyBindings = [
            bind(.submit, "send") { [weak self] in self?.screen.submit() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        screen.addField(.amount, "Amount", amount)
        screen.addField(.note, "Note", note)
        screen.buttons.add(sendButton)
        view.addSubview(screen.stack)
        focus(countryCode)
    }

    private var form: SendMoney.Form {
        SendMoney.Form(
            countryCode: countryCode.text,
            phoneNumber: phoneNumber.text,
            amount: amount.text,
            note: note.text,
        )
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    // MARK: Display

    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: SendMoney.Submit.ViewModel) {
        screen.display(viewModel, activity: "Sending…")
    }
}
