import TerminalUI

@MainActor
public protocol ActivateCardDisplayLogic: AnyObject {
    func displayLoad(viewModel: ActivateCard.Load.ViewModel)
    func displaySubmit(viewModel: ActivateCard.Submit.ViewModel)
}

/// The last four digits printed on the card; Enter sends a code; the code; Enter activates.
@MainActor
public final class ActivateCardViewController: SceneViewController, ActivateCardDisplayLogic {
    public var interactor: (any ActivateCardBusinessLogic)?

    private let screen = FormScreen(intro: "")
    let last4 = TextField.digits(maxLength: 4)
    let code = TextField.digits(maxLength: 6)
    private lazy var button = Button("Send code") { [weak self] in self?.submit() }
    private var isBusy = false

    public init() {
        super.init(title: "Activate card")
        keyBindings = [
            KeyBinding(.enter, "continue") { [weak self] in self?.submit() },
        ]
    }

    public override func viewDidLoad() {
        screen.form.addField("Last four digits", last4)
        screen.form.addField("Code", code)
        screen.form.setRowHidden(true, for: code)
        last4.onSubmit = { [weak self] in self?.submit() }
        code.onSubmit = { [weak self] in self?.submit() }
        screen.buttons.add(button)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(last4)
    }

    private func submit() {
        guard !isBusy else { return }
        interactor?.submit(request: .init(form: .init(last4: last4.text, code: code.text)))
    }

    public override func escapePressed() {
        interactor?.back(request: .init())
    }

    public func displayLoad(viewModel: ActivateCard.Load.ViewModel) {
        title = viewModel.title
        screen.intro.text = viewModel.instructions
    }

    public func displaySubmit(viewModel: ActivateCard.Submit.ViewModel) {
        isBusy = viewModel.isBusy
        screen.setBusy(viewModel.isBusy, "Working… (Esc cancels)")
        if viewModel.stage == .code && code.isHidden {
            screen.form.setRowHidden(false, for: code)
            last4.isEnabled = false
            button.title = "Activate"
            focus(code)
        }
        if let instructions = viewModel.instructions { screen.intro.text = instructions }
        screen.form.setError(viewModel.fieldErrors[.last4], for: last4)
        screen.form.setError(viewModel.fieldErrors[.code], for: code)
        if viewModel.fieldErrors[.last4] != nil {
            // The digits were refused: let the person correct them.
            last4.isEnabled = true
            focus(last4)
        }
        screen.show(viewModel.banner)
        if viewModel.clearCode { code.clear() }
    }
}
