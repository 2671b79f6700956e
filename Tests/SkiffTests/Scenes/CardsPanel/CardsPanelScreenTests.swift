import Foundation
import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

/// Home's Cards panel, in the real app.
@MainActor
@Suite("CardsPanel screen", .timeLimit(.minutes(3)))
struct CardsPanelScreenTests {
    @Test("an American Express card's whole title shows, and every card's details start in the same column")
    func longBrandName() async throws {
        let amex = Card(id: "c_amex", kind: .external, brand: .amex, last4: "0005", expiryMonth: 4, expiryYear: 2029,
                        holderName: "ALEX RIVERA", status: .active)
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(HomeScreenTests.pages(60)))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, amex]))
        }
        try await harness.start()
        let lines = harness.terminal.lines
        let amexLine = try #require(lines.first { $0.contains("American Express •••• 0005") })
        let visaLine = try #require(lines.first { $0.contains("Visa •••• 0005") })
        #expect(amexLine.range(of: "Added card")?.lowerBound.utf16Offset(in: amexLine)
            == visaLine.range(of: "Skiff card")?.lowerBound.utf16Offset(in: visaLine))
    }

    /// Issue 42, point 11.
    @Test("at 40 columns each card's status stays in view: the summary and the names' column give way first")
    func narrowCards() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 40, height: 30) {
            $0.account.pages.set(.success(HomeScreenTests.pages(10)))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard, Seeds.frozenCard]))
        }
        try await harness.start()
        for (last4, status) in [("0005", "Inactive."), ("4242", "Active"), ("4444", "Frozen")] {
            let line = try #require(harness.terminal.lines.first { $0.contains("•••• \(last4)") })
            #expect(line.contains(status), "\(line)")
        }
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-narrow-cards")
    }

    @Test("no cards: the panel says how to add one, with Home's key; a card added elsewhere shows by the stream")
    func noCardsThenAdded() async throws {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(HomeScreenTests.pages(3)))
            $0.cards.cardsResult.set(.success([]))
        }
        try await harness.start()
        #expect(harness.screen.contains("No cards yet. Press a to add one."))
        #expect(await harness.waitUntil { harness.live.isOpen })
        harness.cards.cardsResult.set(.success([Seeds.externalCard]))
        harness.live.send(.event(.cardChanged))
        #expect(await harness.waitUntil { harness.screen.contains("Visa •••• 4242") })
        await harness.settle()
        #expect(!harness.screen.contains("No cards yet."))
    }
}
