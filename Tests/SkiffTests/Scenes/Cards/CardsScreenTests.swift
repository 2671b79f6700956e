import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Cards screen")
struct CardsScreenTests {
    /// The whole wallet on Home with the issued and an added card, then `c`.
    private func openCards(_ cards: [Card] = [Seeds.issuedCard, Seeds.externalCard]) async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(1)], nextCursor: nil)]))
            $0.cards.cardsResult.set(.success(cards))
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

    @Test("f freezes the selected card: Frozen on Cards, and on Home once the stream says so, without a reload")
    func freeze() async throws {
        let harness = try await openCards()
        await harness.send(.character("f"))
        #expect(harness.cards.freezes.all.map(\.cardID) == ["c_issued"])
        assertSnapshot(of: harness.terminal, as: .screen, named: "cards-frozen")
        let homeLoads = harness.account.calls.count
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        var frozen = Seeds.issuedCard
        frozen.frozen = true
        #expect(await harness.cardsChanged(to: [frozen, Seeds.externalCard]) {
            harness.screen.contains("Skiff card · expires 11/30 · Frozen")
        }, "\(harness.screen)")
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
        await harness.send(.left, .enter)
        #expect(harness.cards.removals.all == ["c_ext"])
        #expect(harness.screen.contains("Visa •••• 4242 removed."))
        #expect(!harness.screen.contains("Added card"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(await harness.cardsChanged(to: [Seeds.issuedCard]) { !harness.screen.contains("•••• 4242") }, "\(harness.screen)")
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

    /// The status bar's keys, between the screen's hints and `Esc back`.
    private func statusBar(_ harness: ScreenHarness) -> String {
        harness.terminal.lines.last?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    @Test("the status bar offers a and v while the inactive Skiff card is selected, and d instead of v on an added card")
    func keysOffered() async throws {
        let harness = try await openCards()
        #expect(statusBar(harness) == "f freeze card  v activate card  a add card  Esc back  ? help")
        await harness.send(.down)
        #expect(statusBar(harness) == "f freeze card  d remove card  a add card  Esc back  ? help")
        await harness.send(.up, .character("f"))
        #expect(statusBar(harness) == "f unfreeze card  a add card  Esc back  ? help", "a frozen card cannot be activated")
        let help = harness.navigation.helpBindings
        #expect(help.contains { $0.keys == [.character("a")] && $0.help == "add card" })
        #expect(!help.contains { $0.keys == [.character("v")] })
    }

    @Test("a on Cards runs Add card over it; once added, Cards lists the card and says so, and Home has it")
    func addFromCards() async throws {
        let harness = try await openCards([Seeds.issuedCard])
        await harness.send(.character("a"))
        #expect(harness.top is AddCardViewController)
        await harness.type("4242424242424242")
        await harness.send(.tab, .tab)
        await harness.type("0429")
        await harness.send(.tab)
        await harness.type("123")
        await harness.send(.enter)
        await harness.send(.enter)
        #expect(harness.cards.adds.count == 1)
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("Visa •••• 4242 added."))
        #expect(harness.screen.contains("Added card · expires 04/29 · Active"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(await harness.cardsChanged(to: [Seeds.issuedCard, Seeds.externalCard]) { harness.screen.contains("•••• 4242") })
    }

    @Test("Esc on Add card opened from Cards comes back to Cards with nothing changed")
    func addCancelled() async throws {
        let harness = try await openCards([Seeds.issuedCard])
        await harness.send(.character("a"), .escape)
        #expect(harness.top is CardsViewController)
        #expect(harness.cards.adds.count == 0)
        #expect(!harness.screen.contains("4242"))
    }

    @Test("v on Cards activates the selected Skiff card; Cards then shows it active, and so does Home")
    func activateFromCards() async throws {
        let harness = try await openCards()
        await harness.send(.character("v"))
        #expect(harness.top is ActivateCardViewController)
        await harness.type("0005")
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.enter)
        #expect(harness.cards.activations.last?.cardID == "c_issued")
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("Visa •••• 0005 is active."))
        #expect(harness.screen.contains("Skiff card · expires 11/30 · Active"))
        #expect(!statusBar(harness).contains("activate card"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        var active = Seeds.issuedCard
        active.status = .active
        #expect(await harness.cardsChanged(to: [active, Seeds.externalCard]) {
            harness.screen.contains("Skiff card · expires 11/30 · Active")
        }, "\(harness.screen)")
    }

    @Test("v does nothing on an added card, which needs no activation")
    func activateOnAddedCard() async throws {
        let harness = try await openCards()
        await harness.send(.down, .character("v"))
        #expect(harness.top is CardsViewController)
        #expect(harness.cards.activationRequests.count == 0)
    }

    @Test("the removal question opens on Keep: Enter straight away keeps the card")
    func removeFocusesKeep() async throws {
        let harness = try await openCards()
        await harness.send(.down, .character("d"), .enter)
        #expect(harness.cards.removals.count == 0)
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("Added card · expires 04/29 · Active"))
    }
}
