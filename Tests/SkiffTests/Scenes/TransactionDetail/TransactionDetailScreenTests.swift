import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Transaction detail screen", .timeLimit(.minutes(3)))
struct TransactionDetailScreenTests {
    @Test("Enter opens the transaction; Esc comes back to Home")
    func detail() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(3))) }
        try await harness.start()
        await harness.send(.down, .enter)
        #expect(harness.top is TransactionDetailViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "transaction-detail")
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
    }
}
