import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Login screen", .timeLimit(.minutes(3)))
struct LoginScreenTests {
    /// A clock whose waits last until cancelled, so a lock-out countdown stays where it started.
    static let frozen = SceneClock(now: { Seeds.now }, sleep: { _ in try await Task.sleep(for: .seconds(3600)) })

    @Test("first start: focus on the phone number, demo hint, keys in the status bar")
    func empty() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        #expect(harness.top is LoginViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-empty")
    }

    @Test("a remembered number: the cursor is in Password, so a password typed at once goes there, hidden")
    func rememberedNumberFocusesPassword() async throws {
        let harness = ScreenHarness()
        harness.preferences.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0102"))
        try await harness.start()
        let login = try #require(harness.top as? LoginViewController)
        #expect(login.focusedView === login.password)
        await harness.type("harbour-lights-9")
        #expect(login.phoneNumber.text == "202 555 0102")
        #expect(!harness.screen.contains("harbour"))
        #expect(login.password.text == "harbour-lights-9")
    }

    /// Issue 42, point 11: a show-password toggle.
    @Test("Ctrl-T shows the password typed and hides it again; leaving the field hides it; the status bar and the help name it")
    func showPassword() async throws {
        let harness = ScreenHarness()
        harness.preferences.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0102"))
        try await harness.start()
        #expect(harness.terminal.lines.last?.contains("Ctrl-T show password") == true, "\(harness.screen)")
        #expect(harness.terminal.lines.last?.contains("Ctrl-Q quit") == true, "every key of the screen still fits")
        await harness.type("harbour-lights-9")
        await harness.send(.ctrl("t"))
        #expect(harness.screen.contains("harbour-lights-9"))
        await harness.send(.ctrl("t"))
        #expect(!harness.screen.contains("harbour"))
        await harness.send(.ctrl("t"))
        await harness.send(.backTab)
        #expect(!harness.screen.contains("harbour"), "leaving the field hides it")
        await harness.send(.tab)
        #expect(!harness.screen.contains("harbour"))
        let login = try #require(harness.top as? LoginViewController)
        #expect(login.password.text == "harbour-lights-9", "nothing typed was lost")
        await harness.send(.function(1))
        #expect(harness.screen.contains("show password"))
    }

    @Test("Enter on an empty form shows an error under each field")
    func errors() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-errors")
        #expect(harness.auth.logins.count == 0)
    }

    @Test("a running login shows the spinner and keeps the form")
    func loading() async throws {
        let harness = ScreenHarness()
        harness.auth.gate = Gate()
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.tab)
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-loading")
        await harness.send(.escape)
        #expect(!harness.screen.contains("Logging in"))
        #expect(harness.screen.contains("2025550143"))
    }

    @Test("wrong credentials: one message, the number kept, the password cleared")
    func wrongPassword() async throws {
        let harness = ScreenHarness()
        harness.auth.loginResult.set(.failure(.unauthorised))
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.tab)
        await harness.type("wrong-password")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-wrong-password")
    }

    @Test("locked out: the wait is shown")
    func throttled() async throws {
        let harness = ScreenHarness(clock: Self.frozen)
        harness.auth.loginResult.set(.failure(.throttled(retryAfterSeconds: 900)))
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.tab)
        await harness.type("wrong-password")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-throttled")
    }

    @Test("server unreachable: a message with the retry key, the form kept")
    func unreachable() async throws {
        let harness = ScreenHarness()
        harness.auth.loginResult.set(.failure(.unreachable))
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.tab)
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-unreachable")
        harness.auth.loginResult.set(.success(Seeds.session))
        await harness.send(.ctrl("r"))
        #expect(harness.top is HomeViewController)
    }

    @Test("on a short terminal with an error shown, Tab to the password scrolls the form to it")
    func shortTerminalKeepsFocusedFieldInView() async throws {
        let harness = ScreenHarness(width: 127, height: 13)
        try await harness.start()
        await harness.type("20255501443")
        await harness.send(.tab)
        #expect(harness.screen.contains("This country's numbers have 10 digits."))
        let login = try #require(harness.top as? LoginViewController)
        #expect(login.focusedView === login.password)
        #expect(FuzzInvariants.focusProblem(in: harness.app.application) == nil)
    }
}
