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
        #expect(harness.prose.contains(CardLastFour.Problem.malformed.message))
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
        #expect(harness.cards.activations.last?.code == "482913")
        var active = Seeds.issuedCard
        active.status = .active
        #expect(await harness.cardsChanged(to: [active]) { harness.screen.contains("expires 11/30 · Active") }, "\(harness.screen)")
    }

    @Test("last four digits that are not the card's are refused on that field before any code: the digits stay, no code row")
    func wrongLast4BeforeCode() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        harness.cards.activationResult.set(.failure(.validation(
            detail: "Correct the fields listed in errors and try again.",
            fields: [FieldError(field: "last4", message: CardLastFour.Problem.mismatch.message)]
        )))
        try await harness.start()
        await harness.send(.character("v"))
        await harness.type("1111")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "activate-wrong-last4")
        #expect(harness.prose.contains(CardLastFour.Problem.mismatch.message))
        #expect(harness.screen.contains("1111"), "what was typed is kept")
        #expect(!harness.screen.contains("Code"))
        #expect(!harness.screen.contains("We sent"))
        #expect(harness.cards.activationRequests.all.map(\.last4) == ["1111"])
        let screen = try #require(harness.top as? ActivateCardViewController)
        #expect(screen.last4.isEnabled && screen.last4.isFocused)
        harness.cards.activationResult.set(.success(Seeds.challenge))
        await harness.send(.backspace, .backspace, .backspace, .backspace)
        await harness.type("0005")
        await harness.send(.enter)
        #expect(harness.screen.contains("We sent a 6-digit code"))
    }

    @Test("against the real server: wrong last four digits are refused on the field and no code is texted; the right ones get one")
    func liveWrongLast4SendsNoCode() async throws {
        let harness = try await LiveAppHarness.start()
        do {
            try await harness.logIn()
            await harness.send(.character("v"))
            #expect(harness.top is ActivateCardViewController)
            let title = harness.terminal.lines.first ?? ""
            let last4 = try #require(title.firstMatch(of: /•••• (\d{4})/).map { String($0.1) })
            let wrong = last4 == "0000" ? "1111" : "0000"
            await harness.type(wrong)
            await harness.send(.enter)
            #expect(await harness.waitFor(CardLastFour.Problem.mismatch.message))
            #expect(harness.latestCode(for: .cardActivation) == nil, "no code was texted")
            #expect(!harness.screen.contains("We sent"))
            await harness.send(.backspace, .backspace, .backspace, .backspace)
            await harness.type(last4)
            await harness.send(.enter)
            #expect(await harness.waitFor("We sent a 6-digit code"))
            #expect(harness.latestCode(for: .cardActivation) != nil)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}
