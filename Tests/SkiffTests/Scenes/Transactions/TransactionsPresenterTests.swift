import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("TransactionsPresenter")
struct TransactionsPresenterTests {
    let display = TransactionsDisplayLogicSpy()

    func makeSUT(formatting: Formatting = Seeds.utc) -> TransactionsPresenter {
        let sut = TransactionsPresenter(formatting: formatting)
        sut.viewController = display
        return sut
    }

    func loaded() -> Transactions.State {
        var state = Transactions.State()
        state.transactions = [Seeds.transaction(1), Seeds.transaction(2, amountMinor: 250_000)]
        state.today = Seeds.now
        return state
    }

    var shown: Transactions.UpdateViewModel? { display.displayUpdateCalls.last }

    @Test("dated rows with signed amounts, money in marked; the title names the search key")
    func rows() throws {
        makeSUT().presentUpdate(response: .init(state: loaded()))
        let vm = try #require(shown)
        #expect(vm.rows.count == 2)
        #expect(vm.rows[0] == .init(text: "22 Nov  Merchant 1 · Groceries", amount: "-$12.50", isIncoming: false))
        #expect(vm.rows[1].amount == "+$2,500.00")
        #expect(vm.rows[1].isIncoming)
        #expect(vm.title == "Transactions · / to search")
        #expect(vm.emptyText == nil)
        #expect(!vm.isLoadingMore)
        #expect(!vm.moneyArrivedOnTop)
    }

    @Test("money put on top by the live stream is said to the view, which keeps a selection on the newest row there")
    func moneyArrivedOnTop() throws {
        var state = loaded()
        state.moneyArrivedOnTop = true
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(try #require(shown).moneyArrivedOnTop)
    }

    @Test("a transfer's row ends with the sender's note, quoted, where the row cuts what does not fit")
    func noteInTheRow() {
        var state = loaded()
        var transfer = Seeds.transaction(3, amountMinor: 300)
        transfer.merchant = "Jordan R."
        transfer.category = "Transfers"
        transfer.note = "Coffee"
        state.transactions = [transfer]
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(shown?.rows[0].text == "22 Nov  Jordan R. · Transfers · “Coffee”")
    }

    @Test("rows sit under their month's heading; a date in another year than today's says its year")
    func monthsAndYears() throws {
        var state = loaded()
        let old = Transaction(
            id: "t_old", amount: Money(amountMinor: -4_000, currency: "USD"), merchant: "Old Shop", category: "Gifts",
            createdAt: Seeds.now.addingTimeInterval(-327 * 86_400)
        )
        state.transactions = [Seeds.transaction(1), old]
        state.today = Seeds.now
        makeSUT().presentUpdate(response: .init(state: state))
        let rows = try #require(shown?.rows)
        #expect((0..<rows.lineCount).map { rows.line(at: $0) } == [
            .month("November 2026"), .transaction(0, Seeds.transaction(1)), .month("December 2025"), .transaction(1, old),
        ])
        #expect(rows[0].text == "22 Nov  Merchant 1 · Groceries")
        #expect(rows[1].text == "30 Dec 2025  Old Shop · Gifts")
        #expect(rows.currentYear == 2026)
    }

    @Test("amounts blur while the display is private, in the rows and the title's total, and come back after; presented again by itself")
    func blurred() throws {
        let privacy = DisplayPrivacy()
        let sut = makeSUT(formatting: Formatting(timeZone: Seeds.utc.timeZone, privacy: privacy))
        var state = loaded()
        state.query = "Merchant"
        sut.presentUpdate(response: .init(state: state))
        let clear = try #require(shown)
        privacy.isBlurred = true
        #expect(display.displayUpdateCalls.count == 2, "the last state, presented again")
        let blurred = try #require(shown)
        #expect(blurred.rows.blurred)
        #expect(blurred.rows[0] == .init(text: "22 Nov  Merchant 1 · Groceries", amount: "•••", isIncoming: false))
        #expect(blurred.rows[1].amount == "•••")
        #expect(blurred.title == "2 matching “Merchant” · •••")
        #expect(blurred.rows != clear.rows, "every row changes: the list draws them again")
        privacy.isBlurred = false
        #expect(shown?.rows[0].amount == "-$12.50")
        #expect(shown?.title == "2 matching “Merchant” · +$2,487.50")
        #expect(shown?.rows == clear.rows)
    }

    @Test("a search's title counts what matched and adds it up; while pages remain it counts what came so far")
    func searchTitle() {
        let sut = makeSUT()
        var state = loaded()
        state.query = "coffee"
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "2 matching “coffee” · +$2,487.50")
        state.transactions = TransactionWindow(firstPage: (1...50).map { Seeds.transaction($0) }, nextCursor: "c50")
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "50+ matching “coffee” · -$625.00 so far")
    }

    @Test("a search too short for the server's index says it looked at the newest transactions only, and how to search all")
    func shortSearch() {
        let sut = makeSUT()
        var state = loaded()
        state.query = "bp"
        state.searchLimit = 10_000
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "2 matching “bp” in your newest 10,000 · +$2,487.50")
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "0 matching “bp” in your newest 10,000")
        #expect(shown?.emptyText == "None of your newest 10,000 transactions match “bp”; type 3 or more characters to search all.")
    }

    @Test("a category picked in the chart: how many in it that month and their total; the year when it is not this one")
    func categoryTitle() {
        let sut = makeSUT()
        var state = loaded()
        state.query = "Groceries"
        state.category = .init(name: "Groceries", month: "2026-11")
        state.transactions = [Seeds.transaction(1), Seeds.transaction(2)]
        state.today = Seeds.now
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "2 in Groceries in November · -$25.00")
        state.today = Seeds.now.addingTimeInterval(60 * 86_400)
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.title == "0 in Groceries in November 2026")
        #expect(shown?.emptyText == "No Groceries transactions in November 2026.")
    }

    @Test("empty list wording depends on search, loading and a failure")
    func empty() {
        let sut = makeSUT()
        var state = loaded()
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.emptyText == "No transactions yet.")
        #expect(shown?.title == "Transactions · / to search", "the key that searches")
        state.error = .unreachable
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.emptyText == "Nothing to show yet.", "the banner says why")
        state.error = nil
        state.query = "coffee"
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.emptyText == "No transactions match “coffee”.")
        #expect(shown?.title == "0 matching “coffee”")
        state.activity = .loading
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.emptyText == "Loading transactions…")
    }

    @Test("the footer says more is loading only while a page is on its way, not during a first-page fetch")
    func loadingMore() {
        let sut = makeSUT()
        var state = loaded()
        state.activity = .loadingMore
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.isLoadingMore == true)
        #expect(shown?.emptyText == nil)
        state.activity = .loading
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.isLoadingMore == false)
        state.activity = .idle
        sut.presentUpdate(response: .init(state: state))
        #expect(shown?.isLoadingMore == false)
    }

    @Test("a category picked in the chart becomes the search row's text")
    func showCategory() {
        makeSUT().presentShowCategory(response: .init(category: "Coffee"))
        #expect(display.displayShowCategoryCalls == [.init(searchText: "Coffee")])
        #expect(display.calls == ["displayShowCategory"])
    }
}
