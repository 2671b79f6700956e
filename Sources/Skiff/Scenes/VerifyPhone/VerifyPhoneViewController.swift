import TerminalUI

@MainActor
public protocol VerifyPhoneDisplayLogic: AnyObject {
    func displayLoad(viewModel: VerifyPhone.Load.ViewModel)
    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel)
}

/// The 6-digit code sent at registration.
@MainActor
public final class VerifyPhoneViewController: SceneViewController, VerifyPhoneDisplayLogic {
    public var interactor: (any VerifyPhoneBusinessLogic)?

    private let screen = FormScreen(intro: "")
    let code = TextField.digits(maxLength: 6)
    private lazy var verifyButton = Button("Verify") { [weak self] in self?.submit() }
    private lazy var resendButton = Button("Send a new code") { [weak self] in self?.interactor?.resend(request: .init()) }
    private var isBusy = false

    public init() {
        super.init(title: "Verify phone")
        keyBindings = [
            KeyBinding(.enter, "verify") { [weak self] in self?.submit() },
            KeyBinding(.ctrl("r"), "new code") { [weak self] in self?.interactor?.resend(request: .init()) },
        ]
    }

    public override func viewDidLoad() {
        screen.form.addField("Code", code)
        code.onSubmit = { [weak self] in self?.submit() }
        screen.buttons.add(verifyButton)
        screen.buttons.add(resendButton)
        view.addSubview(screen.stack)
        interactor?.load(request: .init())
        focus(code)
    }

    private func submit() {
        guard !isBusy else { return }
        interactor?.submit(request: .init(code: code.text))
    }

    public override func escapePressed() {
        interactor?.cancel(request: .init())
    }

    public func displayLoad(viewModel: VerifyPhone.Load.ViewModel) {
        screen.intro.text = viewModel.instructions
        if let banner = viewModel.developmentBanner { screen.show(banner) } else { screen.note.clear() }
    }

    public func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel) {
        isBusy = viewModel.isBusy
        screen.setBusy(viewModel.isBusy, "Checking… (Esc cancels)")
        screen.form.setError(viewModel.codeError, for: code)
        screen.show(viewModel.banner)
        if viewModel.clearCode { code.clear() }
    }
}
