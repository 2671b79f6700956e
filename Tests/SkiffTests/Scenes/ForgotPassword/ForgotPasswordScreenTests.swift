import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Forgot password screen")
struct ForgotPasswordScreenTests {
    @Test("a refused code: the message, the secrets cleared, the number kept")
    func error() async throws {
        let harness = ScreenHarness()
        harness.auth.resetResult.set(.failure(.validation(detail: "The code has expired. Ask for a new one.", fields: [])))
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.ctrl("p"))
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "forgot-error")
    }

    /// Issue 42, point 11: a show-password toggle.
    @Test("the new password's toggle comes with its fields: Ctrl-T shows it, the next hides it")
    func showPassword() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.ctrl("p"))
        #expect(!harness.screen.contains("Ctrl-T"), "no password on the number's stage")
        await harness.send(.enter)
        #expect(harness.screen.contains("Ctrl-T show password"))
        await harness.type("482913")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.ctrl("t"))
        #expect(harness.screen.contains("new-harbour-22"))
        await harness.send(.ctrl("t"))
        #expect(!harness.screen.contains("new-harbour-22"))
    }

    @Test("the number stage, then the code and new password")
    func stages() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.ctrl("p"))
        #expect(harness.top is ForgotPasswordViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "forgot-phone")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "forgot-reset")
        await harness.type("482913")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.enter)
        #expect(harness.top is LoginViewController)
        #expect(harness.navigation.viewControllers.count == 1)
        assertSnapshot(of: harness.terminal, as: .screen, named: "login-after-reset")
    }
}
