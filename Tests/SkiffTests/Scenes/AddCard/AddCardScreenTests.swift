import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Add card screen", .timeLimit(.minutes(3)))
struct AddCardScreenTests {
    func open() async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("a"))
        #expect(harness.top is AddCardViewController)
        return harness
    }

    func fill(_ harness: ScreenHarness, number: String = "4242424242424242", expiry: String = "0429", cvc: String = "123") async {
        await harness.type(number)
        await harness.send(.tab, .tab)
        await harness.type(expiry)
        await harness.send(.tab)
        await harness.type(cvc)
    }

    @Test("empty form, the holder name filled in, focus on the number")
    func empty() async throws {
        let harness = try await open()
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-empty")
    }

    @Test("the number is grouped as typed, the brand shown, the CVC hidden")
    func filled() async throws {
        let harness = try await open()
        await fill(harness)
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-filled")
        #expect(!harness.screen.contains("123"))
    }

    @Test("once the focus leaves the number, only its last four show; back on it, the whole number")
    func numberMaskedWhenUnfocused() async throws {
        let harness = try await open()
        await harness.type("4242424242424242")
        #expect(harness.screen.contains("4242 4242 4242 4242"))
        await harness.send(.tab)
        #expect(!harness.screen.contains("4242 4242"))
        #expect(harness.screen.contains("•••• •••• •••• 4242"))
        await harness.send(.backTab)
        #expect(harness.screen.contains("4242 4242 4242 4242"))
    }

    @Test("Amex numbers group 4-6-5")
    func amex() async throws {
        let harness = try await open()
        await harness.type("378282246310005")
        #expect(harness.screen.contains("3782 822463 10005"))
        #expect(harness.screen.contains("American Express"))
    }

    @Test("Luhn and expiry errors inline")
    func errors() async throws {
        let harness = try await open()
        await fill(harness, number: "4242424242424241", expiry: "1026", cvc: "12")
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-errors")
        #expect(harness.cards.adds.count == 0)
    }

    @Test("a blank holder name and a short code are refused in SkiffCore's words, the ones the server sends")
    func sameWordsAsTheServer() async throws {
        let harness = try await open()
        await harness.type("378282")
        await harness.send(.tab)
        for _ in "ALEX RIVERA" { await harness.send(.backspace) }
        await harness.send(.tab)
        await harness.type("1231")
        await harness.send(.tab)
        await harness.type("12")
        await harness.send(.enter)
        #expect(harness.screen.contains(CardHolderName.Problem.name(.empty).message))
        #expect(harness.screen.contains(CardSecurityCode.Problem.wrongLength(expected: 4).message))
        #expect(harness.screen.contains(CardNumber.Problem.tooShort.message))
        #expect(harness.cards.adds.count == 0)
    }

    @Test("Enter confirms with only the last four; Enter adds; Home shows the card")
    func confirmAndAdd() async throws {
        let harness = try await open()
        await fill(harness)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-confirm")
        #expect(!harness.screen.contains("4242 4242"))
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.cards.adds.count == 1)
        #expect(harness.screen.contains("Visa •••• 4242 added."))
        #expect(await harness.cardsChanged(to: [Seeds.issuedCard, Seeds.externalCard]) { harness.screen.contains("Added card") })
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-card-added")
        // The next key dismisses the notice, and still does what it does.
        await harness.send(.character("c"))
        #expect(harness.top is CardsViewController)
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(!harness.screen.contains("added."))
        #expect(harness.screen.contains("Visa •••• 4242"))
    }

    @Test("Esc on the confirmation goes back to the form with everything kept")
    func back() async throws {
        let harness = try await open()
        await fill(harness)
        await harness.send(.enter)
        await harness.send(.escape)
        #expect(harness.screen.contains("4242 4242 4242 4242"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(harness.app.coordinator.children.first?.children.isEmpty == true)
    }

    @Test("adding: the spinner on the confirmation")
    func loading() async throws {
        let harness = try await open()
        harness.cards.gate = Gate()
        await fill(harness)
        await harness.send(.enter)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-loading")
        await harness.send(.escape)
        #expect(harness.top is AddCardViewController)
        #expect(!harness.screen.contains("Adding the card"))
    }

    @Test("a card already in the wallet is refused with a clear message")
    func duplicate() async throws {
        let harness = try await open()
        harness.cards.addResult.set(.failure(.conflict(detail: "A card with this number is already on the account.")))
        await fill(harness)
        await harness.send(.enter)
        await harness.send(.enter)
        assertSnapshot(of: harness.terminal, as: .screen, named: "addcard-duplicate")
    }
}
