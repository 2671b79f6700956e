import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
// The limit catches a hang, not slowness (see the interactor tests' limit).
@Suite("Top up screen", .timeLimit(.minutes(5)))
struct TopUpScreenTests {
    /// The whole wallet signed in on Home with the Skiff card, a good added card, a frozen and an expired one;
    /// then `t`.
    func open(
        cards: [Card] = [Seeds.issuedCard, Seeds.externalCard, Seeds.frozenCard, Seeds.expiredCard],
        _ configure: @escaping (ScreenHarness) -> Void = { _ in }
    ) async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.cards.cardsResult.set(.success(cards))
            configure($0)
        }
        try await harness.start()
        await harness.send(.character("t"))
        #expect(harness.top is TopUpViewController)
        return harness
    }

    /// The good card chosen and `amount` typed, then Enter (the confirmation).
    func amount(_ harness: ScreenHarness, _ amount: String) async {
        await harness.send(.enter)
        await harness.type(amount)
        await harness.send(.enter)
    }

    @Test("the added cards: the frozen and the expired shown muted with why; Enter on the frozen one says so and stays")
    func firstScreen() async throws {
        let harness = try await open()
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up")
        #expect(!harness.screen.contains("•••• 0005"), "the Skiff card is not offered")
        await harness.send(.down)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-frozen")
        #expect((harness.top as? TopUpViewController)?.stage == .card)
    }

    @Test("an amount typed as a person writes it is shown formatted on leaving; a bad one refused in words, kept")
    func amounts() async throws {
        let harness = try await open()
        await harness.send(.enter)
        await harness.type("$1,200")
        await harness.send(.tab)
        #expect(harness.screen.contains("$ 1,200.00"), "the figures beside the field's sign")
        await harness.send(.backTab)
        (harness.top as? TopUpViewController)?.amount.clear()
        await harness.type("12.345")
        await harness.send(.tab)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-bad-amount")
        #expect(harness.screen.contains("12.345"))
        await harness.send(.enter)
        #expect((harness.top as? TopUpViewController)?.stage == .amount)
        #expect(harness.transfers.topUps.count == 0)
    }

    @Test("Enter asks to confirm the amount and the card; Esc back to the amount as it was")
    func confirmation() async throws {
        let harness = try await open()
        await amount(harness, "50")
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-confirm")
        await harness.send(.escape)
        #expect((harness.top as? TopUpViewController)?.amount.text == "50.00", "kept, as the app writes it on leaving, beside the sign")
        #expect(harness.transfers.topUps.count == 0)
    }

    @Test("Enter on the confirmation adds the money; the receipt; Enter returns to Home, which fetches nothing: the stream moves it")
    func receipt() async throws {
        let harness = try await open()
        await amount(harness, "50")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-receipt")
        #expect(harness.transfers.topUps.count == 1)
        let loadsBefore = harness.account.calls.count
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.account.calls.count == loadsBefore, "no reload of Home after money came in (issue 44, point 3)")
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 128_456, currency: "USD"))))
        #expect(await harness.waitUntil { harness.screen.contains("Balance $1,284.56") }, "\(harness.screen)")
    }

    @Test("the card's bank asks its holder to confirm: the address to confirm at and a spinner; Esc stops waiting and says the top-up goes on there")
    func bank() async throws {
        let harness = try await open {
            $0.transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
            $0.transfers.progressResults.set(.success([.success(.added(Seeds.addedMoney))]))
            $0.transfers.progressGate = Gate()
        }
        await amount(harness, "250")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-bank")
        #expect((harness.top as? TopUpViewController)?.stage == .bank)
        #expect(harness.prose.contains("Open this address to confirm it: https://bank.example/3ds/tu_2"), "\(harness.prose)")
        #expect(harness.transfers.progressAsked.count == 1, "the server is asked while the bank waits")
        await harness.send(.escape)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-bank-stopped")
        #expect((harness.top as? TopUpViewController)?.stage == .amount)
        let gate = harness.transfers.progressGate
        harness.transfers.progressGate = nil
        gate?.open()
        await harness.send(.enter)
        await harness.send(.enter)
        #expect(await harness.waitUntil { harness.screen.contains("Added $50.00 from Visa •••• 4242.") }, "\(harness.screen)")
        #expect(harness.transfers.topUps.all.map(\.key).count == 2)
        #expect(Set(harness.transfers.topUps.all.map(\.key)).count == 1, "the same top-up carried on, with the same key")
    }

    @Test("a decline: the reason in words, back on the amount with it kept")
    func declined() async throws {
        let harness = try await open {
            $0.transfers.topUpResult.set(.failure(.declined(
                reason: "The card's issuer declined the payment: the card has insufficient funds."
            )))
        }
        await amount(harness, "50")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-declined")
        #expect((harness.top as? TopUpViewController)?.stage == .amount)
        #expect((harness.top as? TopUpViewController)?.amount.text == "50.00", "kept, as the app writes it on leaving, beside the sign")
    }

    @Test("no added cards: says so, and how to add one; Esc returns to Home")
    func noCards() async throws {
        let harness = try await open(cards: [Seeds.issuedCard])
        assertSnapshot(of: harness.terminal, as: .screen, named: "top-up-no-cards")
        await harness.send(.enter)
        #expect(harness.top is TopUpViewController)
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
    }
}
