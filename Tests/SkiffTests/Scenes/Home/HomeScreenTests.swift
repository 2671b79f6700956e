import Foundation
import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Home screen", .timeLimit(.minutes(3)))
struct HomeScreenTests {
    static func pages(_ count: Int) -> [String: TransactionPage] {
        let items = (1...max(1, count)).map { n in
            Seeds.transaction(n, amountMinor: n % 7 == 0 ? 420_000 : -Int64(n * 137))
        }
        return ["": TransactionPage(items: count == 0 ? [] : Array(items.prefix(50)), nextCursor: count > 50 ? "c50" : nil)]
    }

    @Test("filled: name, balance, badge, cards and transactions")
    func filled() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(60))) }
        try await harness.start()
        #expect(harness.top is HomeViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-filled")
    }

    @Test("many cards on a short terminal: the cards panel gives way and the transactions keep three rows")
    func manyCardsShortTerminal() async throws {
        let cards = (0..<12).map { n in
            Card(id: "c_\(n)", kind: .external, brand: .visa, last4: String(format: "%04d", 1000 + n), expiryMonth: 4,
                 expiryYear: 2029, holderName: "ALEX RIVERA", status: .active)
        }
        let harness = ScreenHarness(session: Seeds.session, width: 56, height: 19) {
            $0.account.pages.set(.success(Self.pages(60)))
            $0.cards.cardsResult.set(.success(cards))
        }
        try await harness.start()
        let home = try #require(harness.top as? HomeViewController)
        #expect(home.focusedView === home.transactions.list)
        #expect(home.transactions.list.frame.height >= 3)
        #expect(harness.screen.contains("Merchant 1 "))
        await harness.send(.character("/"))
        #expect(home.focusedView === home.transactions.searchField)
        #expect(home.transactions.searchField.frame.height == 1)
    }

    @Test("loading: a spinner until the server answers")
    func loading() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.gate = Gate() }
        try await harness.start()
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-loading")
    }

    @Test("empty: no transactions yet")
    func empty() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(0))) }
        try await harness.start()
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-empty")
    }

    @Test("offline: the cached Home, and since when")
    func offline() async throws {
        let harness = ScreenHarness(session: Seeds.session) { harness in
            harness.cache.saveHome(
                HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: (1...3).map { Seeds.transaction($0) }, nextCursor: nil),
                userID: Seeds.user.id, at: Seeds.now.addingTimeInterval(-5400)
            )
            // Every part of Home fails to reach the server (spending answers, as the panel's own error is another test's).
            harness.account.summaryResult.set(.failure(.unreachable))
            harness.account.pages.set(.failure(.unreachable))
            harness.cards.cardsResult.set(.failure(.unreachable))
        }
        try await harness.start()
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-offline")
    }

    @Test("Esc while the cached Home refreshes stops the loads, not the cache's mark: nothing is saved as fresh, and a failed retry still says since when")
    func escapeOverCache() async throws {
        let savedAt = Seeds.now.addingTimeInterval(-5400)
        let gate = Gate()
        let harness = ScreenHarness(session: Seeds.session) { harness in
            harness.cache.saveHome(
                HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: (1...3).map { Seeds.transaction($0) }, nextCursor: nil),
                userID: Seeds.user.id, at: savedAt
            )
            harness.account.pages.set(.success(Self.pages(3)))
            harness.account.gate = gate
        }
        try await harness.start()
        #expect(harness.screen.contains("Showing data from 22 Nov 2026 10:30 · refreshing…"))
        await harness.send(.escape)
        #expect(harness.cache.loadHome(userID: Seeds.user.id)?.savedAt == savedAt, "what was stopped never answered")
        harness.account.summaryResult.set(.failure(.unreachable))
        harness.account.pages.set(.failure(.unreachable))
        harness.account.gate = nil
        gate.open()
        await harness.send(.character("r"))
        #expect(harness.screen.contains("Offline: showing data from 22 Nov 2026 10:30. Can't reach the server."))
    }

    @Test("live: money received shows at once with no key pressed (balance, top row, unread, banner) and the selected transaction stays selected")
    func liveMoneyReceived() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(10))) }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        await harness.send(.down, .down)
        let home = try #require(harness.top as? HomeViewController)
        #expect(selectedText(home) == "22 Nov  Merchant 3 · Groceries")
        let received = Transaction(
            id: "t_live", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.", category: "Transfers",
            createdAt: Seeds.now
        )
        harness.live.send(.event(.moneyReceived(received, from: "Jordan R.", isTopUp: false)))
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD"))))
        harness.live.send(.event(.unreadChanged(4)))
        #expect(await harness.waitUntil { harness.screen.contains("4 unread") })
        #expect(harness.screen.contains("Received $12.50 from Jordan R."))
        #expect(harness.screen.contains("Balance $1,247.06"))
        // The row that was third is still the one selected, one row down.
        #expect(selectedText(home) == "22 Nov  Merchant 3 · Groceries")
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-live-received")
        // The banner is read by the next key, like every notice.
        await harness.send(.up)
        #expect(!harness.screen.contains("Received $12.50"))
    }

    @Test("live: on the newest row, money arriving for more than a screen stays in view: the newest on top and selected")
    func liveBurstStaysInView() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(10))) }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        let home = try #require(harness.top as? HomeViewController)
        let visible = home.transactions.list.visibleRows.count
        // More than the list shows: a selection kept on its row would be pushed to the bottom and the rest above it.
        for n in 1...(visible + 5) {
            let received = Transaction(
                id: "t_burst_\(n)", amount: Money(amountMinor: 1, currency: "USD"), merchant: "Payroll \(n)",
                category: "Transfers", createdAt: Seeds.now
            )
            harness.live.send(.event(.moneyReceived(received, from: "Payroll", isTopUp: false)))
            harness.live.send(.event(.balanceChanged(Money(amountMinor: 123_456 + Int64(n), currency: "USD"))))
        }
        let last = "Payroll \(visible + 5)"
        let balance = "Balance " + Money(amountMinor: 123_456 + Int64(visible + 5), currency: "USD").formatted()
        #expect(await harness.waitUntil { harness.screen.contains(last) && harness.screen.contains(balance) })
        #expect(selectedText(home)?.hasSuffix(last + " · Transfers") == true)
        #expect(home.transactions.list.visibleRows.lowerBound == 0)
        // Moved off the newest row, the selection keeps its transaction as money comes.
        await harness.send(.down)
        let kept = try #require(selectedText(home))
        let more = Transaction(
            id: "t_burst_more", amount: Money(amountMinor: 1, currency: "USD"), merchant: "Payroll more",
            category: "Transfers", createdAt: Seeds.now
        )
        harness.live.send(.event(.moneyReceived(more, from: "Payroll", isTopUp: false)))
        #expect(await harness.waitUntil { harness.screen.contains("Payroll more") })
        #expect(selectedText(home) == kept)
    }

    @Test("live: a session-locked event brings up Lock, as a 423 answer does, and the stream stops until unlocked")
    func liveSessionLocked() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        harness.live.send(.event(.sessionLocked))
        #expect(await harness.waitUntil { harness.top is LockViewController })
        #expect(harness.live.starts == 1)
    }

    /// The text of the list's selected row.
    func selectedText(_ home: HomeViewController) -> String? {
        home.transactions.list.selectedIndex.map { home.transactions.listView(home.transactions.list, rowAt: $0).text }
    }

    // MARK: Issue 42

    /// Point 7.
    @Test("the status bar at 100 columns lists send, top up and cards, and v only while a card can be activated, as ? does")
    func statusBarKeys() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        #expect(harness.terminal.lines.last
            == " s send  t top up  c cards  v activate  a add card  n inbox  r refresh  L log out  q quit  ? help")
        #expect(harness.navigation.helpBindings.contains { $0.keys == [.character("v")] })

        var active = Seeds.issuedCard
        active.status = .active
        let activated = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(Self.pages(3)))
            $0.cards.cardsResult.set(.success([active]))
        }
        try await activated.start()
        #expect(activated.terminal.lines.last
            == " s send  t top up  c cards  a add card  n inbox  r refresh  L log out  q quit  ? help")
        #expect(!activated.navigation.helpBindings.contains { $0.keys == [.character("v")] })
        #expect(!activated.screen.contains("to activate"))
        // The key still answers, with why there is nothing to activate.
        await activated.send(.character("v"))
        #expect(activated.screen.contains("Your Skiff card is already active."))
    }
}
