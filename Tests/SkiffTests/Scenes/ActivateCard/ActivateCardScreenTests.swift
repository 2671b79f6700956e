import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Activate card screen")
struct ActivateCardScreenTests {
    @Test("wrong last four digits are shown on that field, which can be corrected")
    func error() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        harness.cards.activateResult.set(.failure(.validation(detail: "Wrong", fields: [FieldError(field: "last4", message: "These are not the card's last four digits.")])))
        try await harness.start()
        await harness.send(.character("v"))
        await harness.type("1111")
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "activate-error")
    }

    @Test("too few digits are refused in SkiffCore's words, the ones the server sends, before anything is sent")
    func lastFourTooShort() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("v"))
        await harness.type("12")
        await harness.send(.enter)
        #expect(harness.screen.contains(CardLastFour.Problem.malformed.message))
        #expect(harness.cards.activationRequests.count == 0)
    }

    @Test("last four, then the code with the development hint, then Home shows the card active")
    func activate() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("v"))
        #expect(harness.top is ActivateCardViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "activate-last4")
        await harness.type("0005")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "activate-code")
        await harness.type("482913")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.screen.contains("Active"))
        #expect(harness.cards.activations.last?.code == "482913")
    }
}
