import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Register screen", .timeLimit(.minutes(3)))
struct RegisterScreenTests {
    @Test("Ctrl-N opens Register with the number typed on Login")
    func empty() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.type("2025550199")
        await harness.send(.ctrl("n"))
        #expect(harness.top is RegisterViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "register-empty")
    }

    /// Issue 42, point 11: a show-password toggle.
    @Test("Ctrl-T shows the password in the field the cursor is in, and only there; Tab hides it")
    func showPassword() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.fillRegistration()
        await harness.send(.ctrl("t"))
        #expect(harness.screen.components(separatedBy: "harbour-lights-9").count == 2, "the repeated password only")
        await harness.send(.backTab)
        #expect(!harness.screen.contains("harbour-lights-9"))
        #expect(harness.screen.contains("Ctrl-T show password"))
    }

    @Test("each refused field says why")
    func errors() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.send(.ctrl("n"))
        await harness.type("555")
        await harness.send(.tab, .tab)
        await harness.type("short")
        await harness.send(.tab)
        await harness.type("other")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "register-errors")
    }

    @Test("filled and sending: the spinner, everything kept")
    func loading() async throws {
        let harness = ScreenHarness()
        harness.auth.gate = Gate()
        try await harness.start()
        await harness.fillRegistration()
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "register-loading")
        await harness.send(.escape)
        #expect(harness.top is RegisterViewController)
        #expect(harness.screen.contains("Sam Lee"))
    }
}
