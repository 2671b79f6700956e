import SkiffCore
import TerminalUI

@MainActor
protocol AddCardDisplayLogic: AnyObject {
    func displayLoad(viewModel: AddCard.Load.ViewModel)
    func displayNumberChanged(viewModel: AddCard.NumberChanged.ViewModel)
    func displayValidateField(viewModel: AddCard.ValidateField.ViewModel)
    func displaySubmit(viewModel: AddCard.Submit.ViewModel)
    func displayBack(viewModel: AddCard.Back.ViewModel)
}

/// The card's number (grouped as typed), holder name, expiry (MM/YY) and security code; then a confirmation.
@MainActor
final class AddCardViewController: SceneViewController, AddCardDisplayLogic, SceneDisplay {
    var interactor: (any AddCardBusinessLogic)?

    private lazy var screen = FormScreen<AddCard.Field>(
        intro: "Add a card from another bank. The number and security code go to the card network once, never to Skiff, and are never stored.",
        owner: self
    )
    let number = TextField.digits(maxLength: 19)
    private let brand = Label("", style: .muted)
    let holderName = TextField(maxLength: CardHolderName.maxLength)
    let expiry = TextField.digits(placeholder: "MM/YY", maxLength: 4)
    let securityCode = SecureField(maxLength: 3)
    private lazy var continueButton = screen.makeActionButton("Continue")

    init(keys: WalletKeys = .standard) {
        super.init(title: "Add card", keys: keys)
        expiry.formatter = .grouping([2, 2], separator: "/")
        number.isSecret = true
        number.visibleSuffixWhenUnfocused = 4
        securityCode.inputFilter = { ("0"..."9").contains($0) }
        keyBindings = [
            bind(.submit) { [weak self] in self?.screen.submit() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        let numberRow = HStack(spacing: 2)
        numberRow.add(number, size: .fixed(24))
        numberRow.add(brand, size: .fill)
        screen.addField(.number, "Card number", number, row: numberRow)
        screen.addField(.holderName, "Name on card", holderName)
        screen.addField(.expiry, "Expiry (MM/YY)", expiry)
        screen.addField(.securityCode, "Security code", securityCode)
        number.onChange = { [weak self] text in self?.interactor?.numberChanged(request: .init(digits: text)) }
        screen.buttons.add(continueButton)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        focus(number)
    }

    private var form: AddCard.Form {
        AddCard.Form(number: number.text, holderName: holderName.text, expiry: expiry.text, securityCode: securityCode.text)
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    /// The number and security code are wiped as soon as the flow is over.
    private func wipeSecrets() {
        securityCode.clear()
        number.clear()
    }

    private func showStage(_ stage: AddCard.Stage) {
        let confirming = stage == .confirm
        screen.form.isHidden = confirming
        if !confirming { screen.confirmation.hide() }
        continueButton.title = confirming ? "Add card" : "Continue"
        if confirming {
            focus(continueButton)
        } else if focusedView === continueButton || focusedView == nil {
            focus(number)
        }
    }

    // MARK: Display

    func displayLoad(viewModel: AddCard.Load.ViewModel) {
        holderName.text = viewModel.holderName
    }

    func displayNumberChanged(viewModel: AddCard.NumberChanged.ViewModel) {
        brand.text = viewModel.brandName ?? ""
        number.formatter = .grouping(viewModel.grouping)
        number.maxLength = viewModel.maxDigits
        securityCode.maxLength = viewModel.securityCodeLength
    }

    func displayValidateField(viewModel: AddCard.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: AddCard.Submit.ViewModel) {
        screen.setBusy(viewModel.isBusy, "Adding the card…", escape: .stopsWaiting(consequence: "the card may still be added"))
        screen.setErrors(viewModel.fieldErrors)
        if let box = viewModel.confirmation { screen.confirmation.show(box) }
        screen.show(viewModel.banner)
        showStage(viewModel.stage)
        if viewModel.clearSecrets { wipeSecrets() }
        if let field = viewModel.focus { focus(screen.input(for: field)) }
    }

    func displayBack(viewModel: AddCard.Back.ViewModel) {
        screen.note.clear()
        screen.error.clear()
        showStage(viewModel.stage)
        if viewModel.clearSecrets { wipeSecrets() }
    }
}
