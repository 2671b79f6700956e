import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Verify phone screen", .timeLimit(.minutes(3)))
struct VerifyPhoneScreenTests {
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
