import Testing
@testable import TerminalUI

/// A login-like screen built only from kit parts, as a wallet scene would be.
@MainActor
final class SignInScreen: ViewController {
    let banner = Banner()
    let form = Form(spacing: 0)
    let phone = TextField(placeholder: "digits", maxLength: 12)
    let password = SecureField(placeholder: "password")
    let spinner = Spinner("Signing in…")
    var result: Result<String, Error> = .success("ok")

    override func viewDidLoad() {
        phone.inputFilter = TextField.digitsOnly
        form.addField("Phone", phone)
        form.addField("Password", password)
        let buttons = HStack(spacing: 2)
        buttons.add(Button("Sign in") { [weak self] in self?.submit() }, size: .fit)
        let stack = VStack(spacing: 1)
        stack.add(banner, size: .fit)
        stack.add(form, size: .fit)
        stack.add(buttons, size: .fixed(1))
        stack.add(spinner, size: .fixed(1))
        view.addSubview(Panel(title: "Sign in", content: stack))
        keyBindings = [KeyBinding(.ctrl("s"), "sign in") { [weak self] in self?.submit() }]
    }

    struct Unreachable: Error {}

    func submit() {
        form.setError(phone.text.count < 7 ? "Enter at least 7 digits." : nil, for: phone)
        guard phone.text.count >= 7 else { return }
        spinner.start()
        task { [weak self] in
            await Task.yield()
            guard let self else { return }
            self.spinner.stop()
            switch self.result {
            case .success: self.banner.show("Welcome back.", kind: .success)
            case .failure: self.banner.show("Server unreachable. Try again.", kind: .error)
            }
        }
    }
}

@Suite("Whole screens", .timeLimit(.minutes(3)))
@MainActor
struct WholeScreenTests {
    @Test("A form screen shows its fields, an inline error, then the result of async work")
    func signInFlow() async throws {
        let screen = SignInScreen(title: "Sign in")
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 44, height: 12)
        #expect(terminal.lines == [
            " Sign in",
            "┌─ Sign in ────────────────────────────────┐",
            "│ Phone     digits                         │",
            "│ Password  password                       │",
            "│                                          │",
            "│ [ Sign in ]                              │",
            "│                                          │",
            "│                                          │",
            "│                                          │",
            "│                                          │",
            "└──────────────────────────────────────────┘",
            " Ctrl-S sign in  ? help  q quit",
        ])
        app.type("12ab3")
        app.send(.tab)
        app.type("hunter2")
        app.send(.ctrl("s"))
        #expect(terminal.lines[1...5] == [
            "┌─ Sign in ────────────────────────────────┐",
            "│ Phone     123                            │",
            "│           Enter at least 7 digits.       │",
            "│ Password  •••••••                        │",
            "│                                          │",
        ])
        app.send(.backTab)
        app.type("4567")
        app.send(.ctrl("s"))
        #expect(terminal.lines[7] == "│ ⠋ Signing in…                            │")
        await app.settle()
        #expect(terminal.lines[1...7] == [
            "┌─ Sign in ────────────────────────────────┐",
            "│  ✓ Welcome back.                         │",
            "│                                          │",
            "│ Phone     1234567                        │",
            "│ Password  •••••••                        │",
            "│                                          │",
            "│ [ Sign in ]                              │",
        ])
    }
}
