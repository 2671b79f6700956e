import Foundation
import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

/// Home's header line (name, balance, unread count, connection), in the real app.
@MainActor
@Suite("Balance screen", .timeLimit(.minutes(3)))
struct BalanceScreenTests {
    @Test("live: Offline in the header while the stream is away, gone when it is back")
    func liveOffline() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(10))) }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        harness.live.send(.offline)
        #expect(await harness.waitUntil { harness.screen.contains("Offline") })
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-live-offline")
        harness.live.send(.online)
        #expect(await harness.waitUntil { !harness.screen.contains("Offline") })
    }

    @Test("the header follows the stream: the badge goes once everything is read, and the balance moves, on the first line")
    func liveHeader() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(10))) }
        try await harness.start()
        // Under the screen's title.
        let header = { harness.terminal.lines.dropFirst().first ?? "" }
        #expect(header().hasPrefix("Alex Rivera "))
        #expect(header().contains("3 unread  Balance $1,234.56"))
        #expect(await harness.waitUntil { harness.live.isOpen })
        harness.live.send(.event(.unreadChanged(0)))
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 99_00, currency: "USD"))))
        #expect(await harness.waitUntil { header().contains("Balance $99.00") })
        #expect(!header().contains("unread"))
    }
}
