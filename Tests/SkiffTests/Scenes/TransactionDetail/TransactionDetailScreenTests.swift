import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Transaction detail screen", .timeLimit(.minutes(3)))
struct TransactionDetailScreenTests {
    @Test("Enter opens the transaction, a transfer with its note and SKF- reference; Esc comes back to Home")
    func detail() async throws {
        var pages = HomeScreenTests.pages(3)
        pages[""]?.items[1].merchant = "Jordan R."
        pages[""]?.items[1].category = "Transfers"
        pages[""]?.items[1].note = "Rent for May"
        pages[""]?.items[1].reference = "SKF-S1QPJ82A"
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(pages)) }
        try await harness.start()
        await harness.send(.down, .enter)
        #expect(harness.top is TransactionDetailViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "transaction-detail")
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
    }
}
