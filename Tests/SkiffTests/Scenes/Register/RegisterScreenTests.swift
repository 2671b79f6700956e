import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Register and Verify phone screens", .timeLimit(.minutes(1)))
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

    @Test("a wrong code is shown under the field and the field is cleared")
    func verifyError() async throws {
        let harness = ScreenHarness()
        harness.auth.verifyResult.set(.failure(.validation(detail: "The code is wrong. 4 tries left.", fields: [])))
        try await harness.start()
        await harness.fillRegistration()
        await harness.send(.enter)
        await harness.type("000000")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "verify-phone-error")
    }

    @Test("a sent code opens Verify phone, showing the development code")
    func verify() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.fillRegistration()
        await harness.send(.enter)
        #expect(harness.top is VerifyPhoneViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "verify-phone")
        await harness.type("482913")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.auth.verifications.last?.1 == "482913")
    }
}
