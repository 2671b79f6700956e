import TerminalUI

@MainActor
protocol VerifyPhoneDisplayLogic: AnyObject {
    func displayLoad(viewModel: VerifyPhone.Load.ViewModel)
    func displayValidateField(viewModel: VerifyPhone.ValidateField.ViewModel)
    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel)
}

/// The 6-digit code sent at registration.
@MainActor
final class VerifyPhoneViewController: SceneViewController, VerifyPhoneDisplayLogic, SceneDisplay {
    var interactor: (any VerifyPhoneBusinessLogic)?

    private lazy var screen = FormScreen<VerifyPhone.Field>(intro: "", owner: self)
    let code = TextField.digits(maxLength: 6)
    private lazy var verifyButton = screen.makeActionButton("Verify")
    private lazy var resendButton = Button("Send a new code") { [weak self] in self?.interactor?.resend(request: .init()) }

    init(keys: WalletKeys = .standard) {
        super.init(title: "Verify phone", keys: keys)
        keyBindings = [
            bind(.submit, "verify") { [weak self] in self?.screen.submit() },
            bind(.retry, "new code") { [weak self] in self?.interactor?.resend(request: .init()) },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.code, "Code", code)
        screen.buttons.add(verifyButton)
        screen.buttons.add(resendButton)
        view.addSubview(screen.view)
        interactor?.load(request: .init())
        focus(code)
    }

    private var form: VerifyPhone.Form {
        VerifyPhone.Form(code: code.text)
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: VerifyPhone.Load.ViewModel) {
        screen.intro.text = viewModel.instructions
        if let banner = viewModel.developmentBanner { screen.show(banner) } else { screen.note.clear() }
    }

    func displayValidateField(viewModel: VerifyPhone.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel) {
        screen.display(viewModel, activity: "Checking…")
    }
}
