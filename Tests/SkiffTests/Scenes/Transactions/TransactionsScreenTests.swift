import Foundation
import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

/// The transaction list as it shows on Home: the whole app is started and the whole screen compared.
@MainActor
@Suite("Transactions screen", .timeLimit(.minutes(3)))
struct TransactionsScreenTests {
    /// The list Home hosts.
    func transactions(_ harness: ScreenHarness) throws -> TransactionsViewController {
        try #require(harness.top as? HomeViewController).transactions
    }

    /// The text of the list's selected row.
    func selectedText(_ transactions: TransactionsViewController) -> String? {
        transactions.list.selectedIndex.map { transactions.listView(transactions.list, rowAt: $0).text }
    }

    @Test("scrolling to the end loads the next page")
    func paging() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(60))) }
        try await harness.start()
        await harness.send(.end)
        #expect(harness.account.calls.all.map(\.cursor) == [nil, "c50"])
    }

    @Test("while the next page is on its way the list's end says so, and stops saying it once the page is in")
    func loadingMoreFooter() async throws {
        var pages = HomeScreenTests.pages(60)
        pages["c50"] = TransactionPage(items: (51...60).map { Seeds.transaction($0) }, nextCursor: nil)
        let harness = ScreenHarness(session: Seeds.session) { [pages] in $0.account.pages.set(.success(pages)) }
        try await harness.start()
        let gate = Gate()
        harness.account.gate = gate
        await harness.send(.end)
        #expect(harness.screen.contains("Loading more transactions…"))
        gate.open()
        #expect(await harness.waitUntil { !harness.screen.contains("Loading more transactions…") })
        #expect(harness.screen.contains("Merchant 51 ·"), "the page's rows follow the last one")
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
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(3))) }
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

    @Test("a search's top row stays selected when Esc brings the whole list back: only money arriving moves a selection off its row")
    func searchThenEscKeepsSelection() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(10))) }
        try await harness.start()
        let list = try transactions(harness)
        let whole = try #require(HomeScreenTests.pages(10)[""])
        let found = try #require(whole.items.first { $0.merchant == "Merchant 3" })
        harness.account.pages.set(.success(["": TransactionPage(items: [found], nextCursor: nil)]))
        await harness.send(.character("/"))
        await harness.type("Merchant 3")
        await harness.send(.enter)
        #expect(await harness.waitUntil { harness.account.calls.last?.query == "Merchant 3" && !harness.screen.contains("Merchant 2 ·") })
        #expect(selectedText(list) == "22 Nov  Merchant 3 · Groceries")
        harness.account.pages.set(.success(HomeScreenTests.pages(10)))
        await harness.send(.escape)
        await harness.send(.character("/"))
        await harness.send(.escape)
        #expect(await harness.waitUntil { harness.account.calls.last?.query == nil && harness.screen.contains("Merchant 2 ·") })
        #expect(selectedText(list) == "22 Nov  Merchant 3 · Groceries")
    }

    @Test("the help lists Enter once, as opening the transaction")
    func helpListsEnterOnce() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(3))) }
        try await harness.start()
        let enter = harness.navigation.helpBindings.filter { $0.keys.contains(.enter) }
        #expect(enter.map(\.help) == ["open transaction"])
    }

    // MARK: Issue 42

    /// Point 10.
    @Test("on a wide terminal the amounts stay near their text: the rows are no wider than a readable width")
    func wideRows() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 200, height: 30) {
            $0.account.pages.set(.success(HomeScreenTests.pages(10)))
        }
        try await harness.start()
        let line = try #require(harness.terminal.lines.first { $0.contains("Merchant 1 ·") })
        let amount = try #require(line.range(of: "-$1.37"))
        #expect(line.distance(from: line.startIndex, to: amount.upperBound) <= 2 + TransactionsViewController.readableRowWidth)
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-wide")
    }

    /// Point 10.
    @Test("results as you type: the list and its title follow the words, counted and added up, without Enter")
    func searchAsYouType() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(3))) }
        try await harness.start()
        await harness.send(.character("/"))
        await harness.type("coffee")
        #expect(harness.account.calls.all.map(\.query) == [nil, "coffee"], "one search, for the words typed")
        #expect(harness.screen.contains("3 matching “coffee” · -$8.22"))
        let list = try transactions(harness)
        #expect(harness.top?.focusedView === list.searchField, "typing goes on")
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
        let list = try transactions(harness)
        #expect(selectedText(list) == "21 Nov  Merchant 1 · Groceries")
        await harness.send(.down, .down)
        #expect(selectedText(list) == "23 Oct  Merchant 3 · Groceries", "the October heading is stepped over")
        await harness.send(.down, .down)
        #expect(selectedText(list) == "27 Dec 2025  Merchant 5 · Groceries")
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-months")
    }

    /// Point 11.
    @Test("a refresh that brings a new line above the selection keeps the selection on its transaction")
    func selectionFollowsTransaction() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(10))) }
        try await harness.start()
        await harness.send(.down, .down)
        let list = try transactions(harness)
        #expect(selectedText(list) == "22 Nov  Merchant 3 · Groceries")
        let newer = Transaction(
            id: "t_new", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.", category: "Transfers",
            createdAt: Seeds.now
        )
        let page = try #require(HomeScreenTests.pages(10)[""])
        harness.account.pages.set(.success(["": TransactionPage(items: [newer] + page.items, nextCursor: nil)]))
        await harness.send(.character("r"))
        #expect(harness.screen.contains("Jordan R."))
        #expect(selectedText(list) == "22 Nov  Merchant 3 · Groceries")
    }
}
