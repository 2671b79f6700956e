import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Cards screen")
struct CardsScreenTests {
    /// The whole wallet on Home with the issued and an added card, then `c`.
    private func openCards() async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(1)], nextCursor: nil)]))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        }
        try await harness.start()
        await harness.send(.character("c"))
        return harness
    }

    @Test("c on Home opens Cards: every card with brand, last four, expiry and status")
    func cards() async throws {
        let harness = try await openCards()
        #expect(harness.top is CardsViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "cards")
    }

    @Test("f freezes the selected card: Frozen on Cards, and on Home once back, without a reload")
    func freeze() async throws {
        let harness = try await openCards()
        await harness.send(.character("f"))
        #expect(harness.cards.freezes.all.map(\.cardID) == ["c_issued"])
        assertSnapshot(of: harness.terminal, as: .screen, named: "cards-frozen")
        let homeLoads = harness.account.calls.count
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(harness.screen.contains("Skiff card · expires 11/30 · Frozen"))
        #expect(!harness.screen.contains("to activate"))
        #expect(harness.account.calls.count == homeLoads)
    }

    @Test("d is offered only on an added card; it asks, naming the card, and removes it from Cards and Home")
    func remove() async throws {
        let harness = try await openCards()
        #expect(!harness.navigation.helpBindings.contains { $0.keys == [.character("d")] })
        await harness.send(.character("d"))
        #expect(harness.cards.removals.count == 0)
        #expect(harness.top is CardsViewController)
        await harness.send(.down)
        #expect(harness.navigation.helpBindings.contains { $0.keys == [.character("d")] && $0.help == "remove card" })
        await harness.send(.character("d"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "remove-alert")
        await harness.send(.enter)
        #expect(harness.cards.removals.all == ["c_ext"])
        #expect(harness.screen.contains("Visa •••• 4242 removed."))
        #expect(!harness.screen.contains("Added card"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(!harness.screen.contains("•••• 4242"))
    }

    @Test("Esc on the removal question keeps the card")
    func keep() async throws {
        let harness = try await openCards()
        await harness.send(.down, .character("d"), .escape)
        #expect(harness.cards.removals.count == 0)
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("•••• 4242"))
    }

    @Test("Enter opens the card's detail; Esc comes back to Cards")
    func detail() async throws {
        let harness = try await openCards()
        await harness.send(.down, .enter)
        #expect(harness.top is CardDetailViewController)
        #expect(harness.screen.contains("Another bank (added card)"))
        await harness.send(.escape)
        #expect(harness.top is CardsViewController)
    }
}
