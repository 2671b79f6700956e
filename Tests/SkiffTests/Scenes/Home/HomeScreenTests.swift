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

    @Test("spending: on a small terminal the panel folds away and the list keeps the room")
    func spendingFolded() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 80, height: 20) { $0.account.pages.set(.success(Self.pages(60))) }
        try await harness.start()
        #expect(harness.account.spendingCalls.count == 1)
        #expect(!harness.screen.contains("Spending"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-spending-folded")
    }

    @Test("g hides the Spending panel and remembers it; g shows it again")
    func spendingToggle() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(60))) }
        try await harness.start()
        #expect(harness.screen.contains("Spending · November"))
        #expect(harness.screen.contains("Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)"))
        await harness.send(.character("g"))
        #expect(!harness.screen.contains("Spending · November"))
        #expect(harness.preferences.hidesSpending())
        await harness.send(.character("g"))
        #expect(harness.screen.contains("Spending · November"))
        #expect(!harness.preferences.hidesSpending())
    }

    @Test("Tab to the chart and Enter on a category filters the list to it; Esc clears the filter")
    func spendingSelect() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        await harness.send(.tab)
        await harness.send(.down, .enter)
        #expect(harness.account.calls.last?.query == "Groceries")
        #expect(harness.screen.contains("Search: Groceries"))
        #expect(harness.screen.contains("3 in Groceries in November · -$8.22"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-spending-category")
        await harness.send(.escape)
        #expect(harness.account.calls.last?.query == nil)
        #expect(!harness.screen.contains("Search:"))
    }

    @Test("only the focused view shows a selection: the list's row while it has the focus, the chart's bar after Tab")
    func oneSelection() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(60))) }
        try await harness.start()
        func style(of text: String) throws -> Style {
            let row = try #require(harness.terminal.lines.firstIndex { $0.contains(text) })
            return harness.terminal.buffer[2, row].style
        }
        // The first row of each (selected) against the second (never selected).
        #expect(try style(of: "Merchant 1 ·") != style(of: "Merchant 2 ·"))
        #expect(try style(of: "Travel ") == style(of: "Groceries "))
        await harness.send(.tab)
        #expect(harness.top?.focusedView === (harness.top as? HomeViewController)?.spendingChart)
        #expect(try style(of: "Travel ") != style(of: "Groceries "))
        #expect(try style(of: "Merchant 1 ·") == style(of: "Merchant 2 ·"))
        await harness.send(.down)
        #expect(try style(of: "Groceries ") != style(of: "Travel "))
        await harness.send(.tab)
        #expect(try style(of: "Merchant 1 ·") != style(of: "Merchant 2 ·"))
        #expect(try style(of: "Groceries ") == style(of: "Coffee "))
    }

    @Test("an American Express card's whole title shows, and every card's details start in the same column")
    func longBrandName() async throws {
        let amex = Card(id: "c_amex", kind: .external, brand: .amex, last4: "0005", expiryMonth: 4, expiryYear: 2029,
                        holderName: "ALEX RIVERA", status: .active)
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(Self.pages(60)))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, amex]))
        }
        try await harness.start()
        let lines = harness.terminal.lines
        let amexLine = try #require(lines.first { $0.contains("American Express •••• 0005") })
        let visaLine = try #require(lines.first { $0.contains("Visa •••• 0005") })
        #expect(amexLine.range(of: "Added card")?.lowerBound.utf16Offset(in: amexLine)
            == visaLine.range(of: "Skiff card")?.lowerBound.utf16Offset(in: visaLine))
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
        #expect(home.focusedView === home.transactions)
        #expect(home.transactions.frame.height >= 3)
        #expect(harness.screen.contains("Merchant 1 "))
        await harness.send(.character("/"))
        #expect(home.focusedView === home.searchField)
        #expect(home.searchField.frame.height == 1)
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
            harness.account.summaryResult.set(.failure(.unreachable))
        }
        try await harness.start()
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-offline")
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

    @Test("live: Offline in the header while the stream is away, gone when it is back")
    func liveOffline() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(10))) }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        harness.live.send(.offline)
        #expect(await harness.waitUntil { harness.screen.contains("Offline") })
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-live-offline")
        harness.live.send(.online)
        #expect(await harness.waitUntil { !harness.screen.contains("Offline") })
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

    @Test("scrolling to the end loads the next page")
    func paging() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(60))) }
        try await harness.start()
        await harness.send(.end)
        #expect(harness.account.calls.all.map(\.cursor) == [nil, "c50"])
    }

    @Test("every Down scrolls the screen's rows, also when it asks for a page or lets one go far above")
    func stepsStayScrolls() async throws {
        let items = (1...300).map { Seeds.transaction($0) }
        var pages: [String: TransactionPage] = [:]
        for start in stride(from: 0, to: 300, by: 50) {
            pages[start == 0 ? "" : "c\(start)"] = TransactionPage(
                items: Array(items[start..<(start + 50)]), nextCursor: start + 50 < 300 ? "c\(start + 50)" : nil)
        }
        let harness = ScreenHarness(session: Seeds.session) { [pages] in $0.account.pages.set(.success(pages)) }
        try await harness.start()
        var drawnWhole: [Int] = []
        for step in 1...200 {
            let before = harness.terminal.buffer
            await harness.send(.down)
            // Rows on screen moved by one, not drawn again; the first steps only move the selection.
            if step > 20, harness.terminal.buffer.scrolledRun(from: before) == nil { drawnWhole.append(step) }
        }
        #expect(drawnWhole.isEmpty)
        #expect(harness.terminal.text.contains("Merchant 201"))
        // The pages far above were let go on the way: back at the top, the second page is fetched again.
        await harness.send(.home)
        #expect(harness.account.calls.all.map(\.cursor).filter { $0 == "c50" }.count == 2)
    }

    @Test("/ searches through the server and Esc clears the search")
    func search() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        await harness.send(.character("/"))
        await harness.type("coffee")
        await harness.send(.enter)
        #expect(harness.account.calls.last?.query == "coffee")
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-search")
        await harness.send(.escape)
        await harness.send(.character("/"))
        await harness.send(.escape)
        #expect(harness.account.calls.last?.query == nil)
    }

    @Test("the help lists Enter once, as opening the transaction")
    func helpListsEnterOnce() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        let enter = harness.navigation.helpBindings.filter { $0.keys.contains(.enter) }
        #expect(enter.map(\.help) == ["open transaction"])
    }

    /// The text of the list's selected row.
    func selectedText(_ home: HomeViewController) -> String? {
        home.transactions.selectedIndex.map { home.listView(home.transactions, rowAt: $0).text }
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

    /// Point 11.
    @Test("at 40 columns each card's status stays in view: the summary and the names' column give way first")
    func narrowCards() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 40, height: 30) {
            $0.account.pages.set(.success(Self.pages(10)))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard, Seeds.frozenCard]))
        }
        try await harness.start()
        for (last4, status) in [("0005", "Inactive."), ("4242", "Active"), ("4444", "Frozen")] {
            let line = try #require(harness.terminal.lines.first { $0.contains("•••• \(last4)") })
            #expect(line.contains(status), "\(line)")
        }
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-narrow-cards")
    }

    /// Point 10.
    @Test("on a wide terminal the amounts stay near their text: the rows are no wider than a readable width")
    func wideRows() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 200, height: 30) { $0.account.pages.set(.success(Self.pages(10))) }
        try await harness.start()
        let line = try #require(harness.terminal.lines.first { $0.contains("Merchant 1 ·") })
        let amount = try #require(line.range(of: "-$1.37"))
        #expect(line.distance(from: line.startIndex, to: amount.upperBound) <= 2 + HomeViewController.readableRowWidth)
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-wide")
    }

    /// Point 10.
    @Test("results as you type: the list and its title follow the words, counted and added up, without Enter")
    func searchAsYouType() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(3))) }
        try await harness.start()
        await harness.send(.character("/"))
        await harness.type("coffee")
        #expect(harness.account.calls.all.map(\.query) == [nil, "coffee"], "one search, for the words typed")
        #expect(harness.screen.contains("3 matching “coffee” · -$8.22"))
        #expect(harness.top?.focusedView === (harness.top as? HomeViewController)?.searchField, "typing goes on")
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-search-typed")
    }

    /// Point 10.
    @Test("history: a heading for each month, steps over them, and last year's dates say their year")
    func months() async throws {
        func row(_ n: Int, daysAgo: Double, amountMinor: Int64 = -2_500) -> Transaction {
            Transaction(
                id: "t_\(n)", amount: Money(amountMinor: amountMinor, currency: "USD"), merchant: "Merchant \(n)",
                category: "Groceries", createdAt: Seeds.now.addingTimeInterval(-daysAgo * 86_400)
            )
        }
        let items = [row(1, daysAgo: 1), row(2, daysAgo: 20), row(3, daysAgo: 30), row(4, daysAgo: 45, amountMinor: 10_000),
                     row(5, daysAgo: 330), row(6, daysAgo: 340)]
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(["": TransactionPage(items: items, nextCursor: nil)]))
        }
        try await harness.start()
        let home = try #require(harness.top as? HomeViewController)
        #expect(selectedText(home) == "21 Nov  Merchant 1 · Groceries")
        await harness.send(.down, .down)
        #expect(selectedText(home) == "23 Oct  Merchant 3 · Groceries", "the October heading is stepped over")
        await harness.send(.down, .down)
        #expect(selectedText(home) == "27 Dec 2025  Merchant 5 · Groceries")
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-months")
    }

    /// Point 11.
    @Test("a refresh that brings a new line above the selection keeps the selection on its transaction")
    func selectionFollowsTransaction() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(Self.pages(10))) }
        try await harness.start()
        await harness.send(.down, .down)
        let home = try #require(harness.top as? HomeViewController)
        #expect(selectedText(home) == "22 Nov  Merchant 3 · Groceries")
        let newer = Transaction(
            id: "t_new", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.", category: "Transfers",
            createdAt: Seeds.now
        )
        let page = try #require(Self.pages(10)[""])
        harness.account.pages.set(.success(["": TransactionPage(items: [newer] + page.items, nextCursor: nil)]))
        await harness.send(.character("r"))
        #expect(harness.screen.contains("Jordan R."))
        #expect(selectedText(home) == "22 Nov  Merchant 3 · Groceries")
    }
}
