import Foundation
import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

/// The Spending panel on Home, in the real app.
@MainActor
@Suite("Spending screen", .timeLimit(.minutes(3)))
struct SpendingScreenTests {
    @Test("spending: on a small terminal the panel folds away and the list keeps the room")
    func spendingFolded() async throws {
        let harness = ScreenHarness(session: Seeds.session, width: 80, height: 20) {
            $0.account.pages.set(.success(HomeScreenTests.pages(60)))
        }
        try await harness.start()
        #expect(harness.account.spendingCalls.count == 1)
        #expect(!harness.screen.contains("Spending"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "home-spending-folded")
    }

    @Test("g hides the Spending panel and remembers it; g shows it again")
    func spendingToggle() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(60))) }
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
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(3))) }
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
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(60))) }
        try await harness.start()
        func style(of text: String) throws -> Style {
            let row = try #require(harness.terminal.lines.firstIndex { $0.contains(text) })
            return harness.terminal.buffer[2, row].style
        }
        // The first row of each (selected) against the second (never selected).
        #expect(try style(of: "Merchant 1 ·") != style(of: "Merchant 2 ·"))
        #expect(try style(of: "Travel ") == style(of: "Groceries "))
        await harness.send(.tab)
        #expect(harness.top?.focusedView === (harness.top as? HomeViewController)?.spending.chart)
        #expect(try style(of: "Travel ") != style(of: "Groceries "))
        #expect(try style(of: "Merchant 1 ·") == style(of: "Merchant 2 ·"))
        await harness.send(.down)
        #expect(try style(of: "Groceries ") != style(of: "Travel "))
        await harness.send(.tab)
        #expect(try style(of: "Merchant 1 ·") != style(of: "Merchant 2 ·"))
        #expect(try style(of: "Groceries ") == style(of: "Coffee "))
    }

    @Test("a failed load says why in the panel, and the panel fills in by itself once the stream is back online")
    func failedThenOnline() async throws {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(HomeScreenTests.pages(3)))
            $0.account.spendingResult.set(.failure(.unreachable))
        }
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        await harness.settle()
        #expect(harness.screen.contains("Can't reach the server. Check the connection and try again."))
        #expect(!harness.screen.contains("Spending · November"))
        let asked = harness.account.spendingCalls.count
        harness.account.spendingResult.set(.success(Seeds.spending))
        harness.live.send(.online)
        #expect(await harness.waitUntil { harness.screen.contains("Spending · November") })
        await harness.settle()
        #expect(harness.account.spendingCalls.count > asked, "asked again, with no key pressed")
        #expect(harness.screen.contains("Spent $1,332.40"))
        #expect(!harness.screen.contains("Can't reach the server"))
    }
}
