import SkiffCore
import TerminalUI

@MainActor
protocol SendMoneyDisplayLogic: AnyObject {
    func displayLoad(viewModel: SendMoney.Load.ViewModel)
    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel)
    func displayFormatAmount(viewModel: SendMoney.FormatAmount.ViewModel)
    func displaySubmit(viewModel: SendMoney.Submit.ViewModel)
    func displayBack(viewModel: SendMoney.Back.ViewModel)
    func displayStrayKey(viewModel: SendMoney.StrayKey.ViewModel)
    func displayUpdateBalance(viewModel: SendMoney.UpdateBalance.ViewModel)
    func displayPickRecent(viewModel: SendMoney.PickRecent.ViewModel)
    func displayCountNote(viewModel: SendMoney.CountNote.ViewModel)
}

/// Send money: country code, phone number, amount and note, each checked as the person leaves it. While the number
/// is empty the numbers money last went to are listed under it, one button each (↓ from the number; Enter picks one
/// and the cursor goes on to the amount); the note counts its characters beside it. Enter looks the recipient up and
/// shows the confirmation in a box (who by full name, the number, the amount, the note; the password, which the
/// show-password key shows while asked, above the step-up amount). Only its own key (`y`), the "Send $5.00" button, or Enter in the password
/// sends; the cursor lands on "Change", and Esc, Shift-Tab or that button go back to the form as it was; any other
/// key is answered in words. Then the receipt, which Enter or Esc closes.
@MainActor
final class SendMoneyViewController: SceneViewController, SendMoneyDisplayLogic, SceneDisplay {
    var interactor: (any SendMoneyBusinessLogic)?

    private lazy var screen = FormScreen<SendMoney.Field>(intro: "", owner: self)
    let countryCode = TextField.countryCode()
    let phoneNumber = TextField.phoneNumber()
    /// Takes any character, so what is not a number is refused in words rather than dropped as it is typed.
    let amount = TextField(maxLength: 32)
    /// The account's currency sign before the amount.
    private let currencySign = Label("", style: .muted)
    /// Longer than a note may be, so a note too long is refused in words and nothing typed is cut off.
    let note = TextField(maxLength: 1000)
    /// `12/140` beside the note, an error past the limit.
    let noteCount = Label("", style: .muted)
    private lazy var noteRow: HStack = {
        let row = HStack(spacing: 1)
        row.add(note, size: .fill)
        row.add(noteCount)
        return row
    }()
    /// The recent recipients, one row each under the number; shown while the number is empty, on the form.
    private(set) lazy var recentButtons: [Button] = (0..<RecentRecipient.kept).map { index in
        Button("") { [weak self] in self?.interactor?.pickRecent(request: .init(index: index)) }
    }
    /// How many of `recentButtons` have a recipient.
    private var recentCount = 0
    let password = SecureField(maxLength: 128)
    private(set) lazy var changeButton = Button("Change") { [weak self] in self?.interactor?.back(request: .init()) }
    private(set) lazy var sendButton = screen.makeActionButton("Continue")
    private(set) var stage: SendMoney.Stage = .form
    /// Whether Shift-Tab left the confirmation: the cursor goes back to the form's last field, not its first.
    private var backByShiftTab = false

    /// The fields of the form stage, hidden on the confirmation and the receipt.
    private let formFields: [SendMoney.Field] = [.countryCode, .phoneNumber, .amount, .note]

    init(keys: WalletKeys = .standard) {
        super.init(title: "Send money", keys: keys)
        bindKeys(for: .form, sendTitle: nil)
    }

    /// The keys follow the stage: Enter continues on the form; on the confirmation `y` sends (Enter in the
    /// password, where one is asked) and Shift-Tab goes back; Enter closes the receipt.
    private func bindKeys(for stage: SendMoney.Stage, sendTitle: String?) {
        let retry = bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() }
        switch stage {
        case .form:
            keyBindings = [bind(.submit, "continue") { [weak self] in self?.screen.submit() }, retry]
        case .confirm:
            let send = sendTitle.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "send"
            keyBindings = [
                password.isHidden
                    ? bind(.confirmSend, send) { [weak self] in self?.screen.submit() }
                    : describe(.submit, send, showsInStatusBar: true),
                bind(.previousStep, showsInStatusBar: false) { [weak self] in
                    self?.backByShiftTab = true
                    self?.interactor?.back(request: .init())
                },
                retry,
            ]
            if !password.isHidden {
                keyBindings.append(bind(.showPassword) { [weak self] in self?.toggleFocusedSecureField() })
            }
        case .receipt:
            keyBindings = [bind(.submit, "back to Home") { [weak self] in self?.screen.submit() }, retry]
        }
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.countryCode, "Country code", countryCode)
        screen.addField(.phoneNumber, "Phone number", phoneNumber)
        for (index, button) in recentButtons.enumerated() {
            screen.form.addField(index == 0 ? "Recent" : "", button)
        }
        screen.addField(.amount, "Amount", amount, row: screen.amountRow(amount, sign: currencySign))
        screen.addField(.note, "Note (optional)", note, row: noteRow)
        screen.addField(.password, "Password", password)
        screen.setRowHidden(true, for: .password)
        phoneNumber.onChange = { [weak self] _ in self?.showRecents() }
        // From the empty number down into its recent recipients there is nothing to check yet: Enter checks it.
        let checkLeaving = onFocusLeave
        onFocusLeave = { [weak self] view in
            guard let self else { return }
            if view === phoneNumber, recentButtons.contains(where: { $0 === self.focusedView }) { return }
            checkLeaving(view)
        }
        note.onChange = { [weak self] text in self?.interactor?.countNote(request: .init(note: text)) }
        changeButton.isHidden = true
        screen.buttons.add(changeButton)
        screen.buttons.add(sendButton)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        interactor?.countNote(request: .init(note: note.text))
        screen.focusFirstEmpty()
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

    /// On the confirmation a key nothing took (a digit, Ctrl-U, a letter) is answered, never dropped in silence;
    /// the help keys stay help.
    override func handle(_ key: Key) -> Bool {
        if super.handle(key) { return true }
        guard stage == .confirm, !KitKeys.help.contains(key) else { return false }
        interactor?.strayKey(request: .init())
        return true
    }

    // MARK: Display

    func displayLoad(viewModel: SendMoney.Load.ViewModel) {
        screen.intro.text = viewModel.instructions
        countryCode.text = viewModel.countryCode
        currencySign.text = viewModel.currencySign
        recentCount = min(viewModel.recents.count, recentButtons.count)
        for (button, title) in zip(recentButtons, viewModel.recents) { button.title = title }
        showRecents()
    }

    func displayUpdateBalance(viewModel: SendMoney.UpdateBalance.ViewModel) {
        screen.intro.text = viewModel.instructions
    }

    /// The number picked fills the form (which hides the list), and the cursor goes on to the amount.
    func displayPickRecent(viewModel: SendMoney.PickRecent.ViewModel) {
        countryCode.text = viewModel.countryCode
        phoneNumber.text = viewModel.phoneNumber
        screen.setError(nil, for: .countryCode)
        screen.setError(nil, for: .phoneNumber)
        focus(amount)
    }

    func displayCountNote(viewModel: SendMoney.CountNote.ViewModel) {
        noteCount.text = viewModel.text
        noteCount.style = viewModel.isOver ? .errorText : .muted
    }

    func displayValidateField(viewModel: SendMoney.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displayFormatAmount(viewModel: SendMoney.FormatAmount.ViewModel) {
        amount.text = viewModel.text
    }

    func displaySubmit(viewModel: SendMoney.Submit.ViewModel) {
        if let title = viewModel.sendTitle { sendButton.title = title }
        show(viewModel.stage, sendTitle: viewModel.sendTitle)
        // The confirmation asks for the password (puts the cursor in it) only above the step-up amount.
        if stage == .confirm, viewModel.form.focus == .password {
            screen.setRowHidden(false, for: .password)
            bindKeys(for: .confirm, sendTitle: sendButton.title)
        }
        if stage == .form {
            screen.display(viewModel.form, activity: "Looking up the number…")
        } else {
            screen.display(viewModel.form, activity: "Sending…", escape: .stopsWaiting(
                consequence: "the money may still go, and a retry never sends it twice"
            ))
        }
        guard viewModel.form.focus == nil, !viewModel.form.isBusy else { return }
        // The cursor never lands on the button that sends: on the confirmation it is on Change.
        switch stage {
        case .confirm where password.isHidden: focus(changeButton)
        case .receipt: focus(sendButton)
        default: break
        }
    }

    func displayBack(viewModel: SendMoney.Back.ViewModel) {
        show(viewModel.stage, sendTitle: nil)
        screen.intro.text = viewModel.instructions
        screen.show(nil)
        screen.note.clear()
        focus(backByShiftTab ? note : phoneNumber)
        backByShiftTab = false
    }

    func displayStrayKey(viewModel: SendMoney.StrayKey.ViewModel) {
        screen.show(viewModel.banner)
    }

    /// The recent recipients' rows: on the form, while the number is empty.
    private func showRecents() {
        let shown = stage == .form && phoneNumber.isEmpty
        for (index, button) in recentButtons.enumerated() {
            screen.form.setRowHidden(!shown || index >= recentCount, for: button)
        }
    }

    /// Shows the fields of `stage`: the form's four; on the confirmation its box, the password where the amount
    /// needs it, and Change beside the send button; on the receipt none.
    private func show(_ stage: SendMoney.Stage, sendTitle: String?) {
        guard stage != self.stage else { return }
        let leavingConfirmation = self.stage == .confirm
        self.stage = stage
        for field in formFields { screen.setRowHidden(stage != .form, for: field) }
        showRecents()
        if stage != .confirm { screen.confirmation.hide() }
        changeButton.isHidden = stage != .confirm
        if stage != .confirm || leavingConfirmation {
            password.clear()
            screen.setRowHidden(true, for: .password)
        }
        if stage != .confirm {
            screen.show(nil)
            screen.note.clear()
        }
        bindKeys(for: stage, sendTitle: sendTitle)
        switch stage {
        case .form: sendButton.title = "Continue"
        case .confirm: break
        case .receipt: sendButton.title = "Done"
        }
    }
}
