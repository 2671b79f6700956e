import TerminalUI

@MainActor
protocol ActivateCardDisplayLogic: AnyObject {
    func displayLoad(viewModel: ActivateCard.Load.ViewModel)
    func displayValidateField(viewModel: ActivateCard.ValidateField.ViewModel)
    func displaySubmit(viewModel: ActivateCard.Submit.ViewModel)
}

/// The last four digits printed on the card; Enter sends a code; the code; Enter activates.
@MainActor
final class ActivateCardViewController: SceneViewController, ActivateCardDisplayLogic, SceneDisplay {
    var interactor: (any ActivateCardBusinessLogic)?

    private lazy var screen = FormScreen<ActivateCard.Field>(intro: "", owner: self)
    let last4 = TextField.digits(maxLength: 4)
    let code = TextField.digits(maxLength: 6)
    private lazy var button = screen.makeActionButton("Send code")

    init(keys: WalletKeys = .standard) {
        super.init(title: "Activate card", keys: keys)
        code.isSecret = true
        keyBindings = [
            bind(.submit) { [weak self] in self?.screen.submit() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.last4, "Last four digits", last4)
        screen.addField(.code, "Code", code)
        screen.setRowHidden(true, for: .code)
        screen.buttons.add(button)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        focus(last4)
    }

    private var form: ActivateCard.Form {
        ActivateCard.Form(last4: last4.text, code: code.text)
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: ActivateCard.Load.ViewModel) {
        title = viewModel.title
        screen.intro.text = sentence(viewModel.instructions)
    }

    func displayValidateField(viewModel: ActivateCard.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: ActivateCard.Submit.ViewModel) {
        if viewModel.stage == .code && code.isHidden {
            screen.setRowHidden(false, for: .code)
            last4.isEnabled = false
            button.title = "Activate"
            focus(code)
        }
        screen.display(viewModel.form, activity: "Working…")
        if viewModel.form.fieldErrors[.last4] != nil {
            // The digits were refused: let the person correct them.
            last4.isEnabled = true
            focus(last4)
        }
    }
}
