import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("HomePresenter")
struct HomePresenterTests {
    let display = HomeDisplayLogicSpy()
    func makeSUT() -> HomePresenter {
        let sut = HomePresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    func loaded() -> Home.State {
        var state = Home.State()
        state.summary = Seeds.summary
        state.cards = [Seeds.issuedCard, Seeds.externalCard]
        state.transactions = [Seeds.transaction(1), Seeds.transaction(2, amountMinor: 250_000)]
        state.today = Seeds.now
        return state
    }

    @Test("name, balance, unread badge, masked cards and signed amounts")
    func loadedState() {
        makeSUT().presentUpdate(response: .init(state: loaded()))
        let vm = display.displayUpdateCalls.last!
        #expect(vm.name == "Alex Rivera")
        #expect(vm.balance == "Balance $1,234.56")
        #expect(vm.cardsEmptyText == nil)
        #expect(vm.unreadBadge == "3 unread")
        #expect(vm.cards.map(\.title) == ["Visa •••• 0005", "Visa •••• 4242"])
        #expect(vm.cards[0].summary == "Skiff card · expires 11/30")
        #expect(vm.cards[0].status == PromptedText("Inactive.", prompts: [KeyPrompt(.activateCard, "activate")]))
        #expect(vm.cards[0].needsActivation)
        #expect(vm.canActivateCard)
        #expect(vm.cards[1].summary == "Added card · expires 04/29")
        #expect(vm.cards[1].status == PromptedText("Active"))
        #expect(vm.transactions[0] == .init(text: "22 Nov  Merchant 1 · Groceries", amount: "-$12.50", isIncoming: false))
        #expect(vm.transactions[1].amount == "+$2,500.00")
        #expect(vm.transactions[1].isIncoming)
        #expect(vm.emptyText == nil)
        #expect(vm.banner == nil)
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
        #expect(display.displayUpdateCalls.last!.transactions[0].text == "22 Nov  Jordan R. · Transfers · “Coffee”")
    }

    @Test("a frozen card says Frozen and is not offered for activation")
    func frozenCard() {
        var state = loaded()
        state.cards[0].frozen = true
        state.cards[1].frozen = true
        makeSUT().presentUpdate(response: .init(state: state))
        let vm = display.displayUpdateCalls.last!
        #expect(vm.cards[0].status == PromptedText("Frozen"))
        #expect(!vm.cards[0].needsActivation)
        #expect(!vm.canActivateCard, "v is not offered while the card is frozen")
        #expect(vm.cards[1].status == PromptedText("Frozen"))
    }

    @Test("no badge when everything is read")
    func noBadge() {
        var state = loaded()
        state.summary?.unreadNotifications = 0
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.unreadBadge == nil)
    }

    @Test("a search too short for the server's index says it looked at the newest transactions only, and how to search all")
    func shortSearch() {
        let sut = makeSUT()
        var state = loaded()
        state.query = "bp"
        state.searchLimit = 10_000
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "2 matching “bp” in your newest 10,000 · +$2,487.50")
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.emptyText
            == "None of your newest 10,000 transactions match “bp”; type 3 or more characters to search all.")
    }

    @Test("a built-in server that could not start is said as it is, over the cache, without a retry that cannot help")
    func serverNotStarted() {
        let sut = makeSUT()
        var state = loaded()
        state.cachedAt = Date(timeIntervalSince1970: 1_790_000_000)
        state.error = .serverNotStarted(reason: "disk full")
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(
            .error, "The built-in server could not start: disk full. Quit and start Skiff again."
        ))
    }

    @Test("empty list wording depends on search and loading")
    func empty() {
        let sut = makeSUT()
        var state = loaded()
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.emptyText == "No transactions yet.")
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "Transactions · / to search", "the key that searches")
        state.query = "coffee"
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.emptyText == "No transactions match “coffee”.")
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "0 matching “coffee”")
        state.activity = .loading
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.emptyText == "Loading transactions…")
        #expect(display.displayUpdateCalls.last?.isBusy == true)
    }

    @Test("offline with a cache says since when and how to retry")
    func offline() {
        var state = loaded()
        state.cachedAt = Seeds.now.addingTimeInterval(-7200)
        state.error = .unreachable
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(
            .error, "Offline: showing data from 22 Nov 2026 10:00. Can't reach the server.", prompts: [KeyPrompt(.refresh, "retry")]
        ))
    }

    @Test("unreachable without a cache points at Home's refresh key")
    func unreachableNoCache() {
        var state = loaded()
        state.error = .unreachable
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.error, "Can't reach the server.", prompts: [KeyPrompt(.refresh, "retry")]))
    }

    @Test("a connection that broke mid-answer is a connection problem too: said with the refresh key")
    func connectionLostNoCache() {
        var state = loaded()
        state.error = .connectionLost
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(
            .error, "The connection to the server broke.", prompts: [KeyPrompt(.refresh, "retry")]
        ))
    }

    @Test("no cards: a line saying how to add one")
    func noCards() {
        var state = loaded()
        state.cards = []
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.cardsEmptyText == PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]))
    }

    @Test("refreshing over cached data says so")
    func refreshing() {
        var state = loaded()
        state.cachedAt = Seeds.now
        state.activity = .loading
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Showing data from 22 Nov 2026 12:00 · refreshing…"))
    }

    @Test("a notice is shown once as information")
    func notice() {
        var state = loaded()
        state.notice = .cardAdded(Seeds.externalCard)
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 4242 added."))
    }

    @Test("each notice in words: a card activated, and why v opened no activation")
    func noticeWording() {
        var active = Seeds.issuedCard
        active.status = .active
        let expected: [(Home.State.Notice, String)] = [
            (.cardActivated(active), "Your Skiff card •••• 0005 is active."),
            (.unfreezeCardFirst, "Your Skiff card is frozen. Unfreeze it first (f on Cards, c from Home)."),
            (.cardAlreadyActive, "Your Skiff card is already active."),
            (.noCardToActivate, "There is no Skiff card to activate yet."),
        ]
        for (notice, words) in expected {
            var state = loaded()
            state.notice = notice
            makeSUT().presentUpdate(response: .init(state: state))
            #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, words))
        }
    }

    @Test("money in, told live: who sent it or which card topped it up; Offline while away")
    func live() {
        let money = Money(amountMinor: 1_250, currency: "USD")
        let expected: [(Home.State.Notice, String)] = [
            (.moneyReceived(money, from: "Alex R.", isTopUp: false), "Received $12.50 from Alex R."),
            (.moneyReceived(money, from: "Visa •••• 4242", isTopUp: true), "Topped up $12.50 from Visa •••• 4242."),
        ]
        for (notice, words) in expected {
            var state = loaded()
            state.notice = notice
            makeSUT().presentUpdate(response: .init(state: state))
            #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, words))
            #expect(display.displayUpdateCalls.last?.connection == nil)
        }
        var offline = loaded()
        offline.isOffline = true
        makeSUT().presentUpdate(response: .init(state: offline))
        #expect(display.displayUpdateCalls.last?.connection == "Offline")
    }

    @Test("before anything loads the balance is a dash")
    func nothingYet() {
        makeSUT().presentUpdate(response: .init(state: Home.State()))
        #expect(display.displayUpdateCalls.last?.balance == "Balance —")
        #expect(display.displayUpdateCalls.last?.name == "")
    }

    // MARK: Spending

    @Test("spending: the month's name, a bar per category with its amount, the total and the change")
    func spending() {
        makeSUT().presentLoadSpending(response: .init(spending: Seeds.spending, isShown: true, isLoading: false, error: nil))
        let vm = display.displayLoadSpendingCalls.last!
        #expect(vm.isShown)
        #expect(vm.title == "Spending · November")
        #expect(vm.bars == [
            .init(category: "Travel", value: 90_000, amount: "$900.00"),
            .init(category: "Groceries", value: 41_250, amount: "$412.50"),
            .init(category: "Coffee", value: 1_990, amount: "$19.90"),
        ])
        #expect(vm.summary == "Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)")
        #expect(vm.emptyText == nil)
    }

    @Test("spending: less than the same days of last month, the same, nothing then, nothing this month")
    func spendingChange() {
        func summary(_ totals: [Int64], _ previous: [Int64]) -> String {
            var spending = Seeds.spending
            spending.totals = totals.map { Money(amountMinor: $0, currency: "USD") }
            spending.previousDaysTotals = previous.map { Money(amountMinor: $0, currency: "USD") }
            makeSUT().presentLoadSpending(response: .init(spending: spending, isShown: true, isLoading: false, error: nil))
            return display.displayLoadSpendingCalls.last!.summary
        }
        #expect(summary([50_000], [100_000]) == "Spent $500.00 · 50% less than October 1–22 ($1,000.00)")
        #expect(summary([100_200], [100_000]) == "Spent $1,002.00 · about the same as October 1–22 ($1,000.00)")
        #expect(summary([100_000], []) == "Spent $1,000.00 · nothing spent from October 1 to 22")
        #expect(summary([], [100_000]) == "Spent nothing yet · 100% less than October 1–22 ($1,000.00)")
    }

    @Test("spending: the days compared are the ones the server answered: one day, or all of a shorter month")
    func spendingDays() {
        func summary(month: String, previousMonth: String, days: ClosedRange<Int>) -> String {
            var spending = Seeds.spending
            spending.month = month
            spending.previousMonth = previousMonth
            spending.previousDays = days
            makeSUT().presentLoadSpending(response: .init(spending: spending, isShown: true, isLoading: false, error: nil))
            return display.displayLoadSpendingCalls.last!.summary
        }
        #expect(summary(month: "2026-12", previousMonth: "2026-11", days: 1...1)
            == "Spent $1,332.40 · 12% more than November 1 ($1,189.00)")
        #expect(summary(month: "2027-03", previousMonth: "2027-02", days: 1...28)
            == "Spent $1,332.40 · 12% more than February 1–28 ($1,189.00)")
        #expect(display.displayLoadSpendingCalls.last?.title == "Spending · March")
    }

    @Test("spending: amounts at the ends of their range give a sane change, not a trap")
    func spendingChangeAtTheLimits() {
        func summary(_ total: Int64, _ previous: Int64) -> String {
            var spending = Seeds.spending
            spending.totals = [Money(amountMinor: total, currency: "USD")]
            spending.previousDaysTotals = [Money(amountMinor: previous, currency: "USD")]
            makeSUT().presentLoadSpending(response: .init(spending: spending, isShown: true, isLoading: false, error: nil))
            return display.displayLoadSpendingCalls.last!.summary
        }
        #expect(summary(.max, 1).hasSuffix("· far more than October 1–22 ($0.01)"))
        #expect(summary(.min, 1).hasSuffix("· far less than October 1–22 ($0.01)"))
        #expect(summary(.max, .max).hasSuffix("· about the same as October 1–22 ($92,233,720,368,547,758.07)"))
        #expect(HomePresenter.percentChange(from: 100_000, to: 112_000) == 12)
        #expect(HomePresenter.percentChange(from: 1, to: .max) == nil)
    }

    @Test("spending: at most six bars, the largest; loading, failure and empty wording")
    func spendingStates() {
        var many = Seeds.spending
        many.categories = (1...9).map { .init(name: "C\($0)", amount: Money(amountMinor: Int64(1_000 - $0), currency: "USD")) }
        makeSUT().presentLoadSpending(response: .init(spending: many, isShown: true, isLoading: false, error: nil))
        #expect(display.displayLoadSpendingCalls.last?.bars.map(\.category) == ["C1", "C2", "C3", "C4", "C5", "C6"])

        makeSUT().presentLoadSpending(response: .init(spending: nil, isShown: true, isLoading: true, error: nil))
        #expect(display.displayLoadSpendingCalls.last?.emptyText == "Loading spending…")
        #expect(display.displayLoadSpendingCalls.last?.title == "Spending")
        makeSUT().presentLoadSpending(response: .init(spending: nil, isShown: true, isLoading: false, error: .unreachable))
        #expect(display.displayLoadSpendingCalls.last?.emptyText == "Can't reach the server. Check the connection and try again.")
        var none = Seeds.spending
        none.categories = []
        none.totals = []
        makeSUT().presentLoadSpending(response: .init(spending: none, isShown: false, isLoading: false, error: nil))
        #expect(display.displayLoadSpendingCalls.last?.emptyText == "Nothing spent yet this month.")
        #expect(display.displayLoadSpendingCalls.last?.isShown == false)
    }

    @Test("a selected category becomes the search row's text")
    func selectCategory() {
        makeSUT().presentSelectCategory(response: .init(category: "Coffee"))
        #expect(display.displaySelectCategoryCalls == [.init(searchText: "Coffee")])
    }

    // MARK: Issue 42

    @Test("a search's title counts what matched and adds it up; while pages remain it counts what came so far")
    func searchTitle() {
        let sut = makeSUT()
        var state = loaded()
        state.query = "coffee"
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "2 matching “coffee” · +$2,487.50")
        state.transactions = TransactionWindow(firstPage: (1...50).map { Seeds.transaction($0) }, nextCursor: "c50")
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "50+ matching “coffee” · -$625.00 so far")
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
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "2 in Groceries in November · -$25.00")
        state.today = Seeds.now.addingTimeInterval(60 * 86_400)
        state.transactions = []
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.transactionsTitle == "0 in Groceries in November 2026")
        #expect(display.displayUpdateCalls.last?.emptyText == "No Groceries transactions in November 2026.")
    }

    @Test("rows sit under their month's heading; a date in another year than today's says its year")
    func monthsAndYears() {
        var state = loaded()
        let old = Transaction(
            id: "t_old", amount: Money(amountMinor: -4_000, currency: "USD"), merchant: "Old Shop", category: "Gifts",
            createdAt: Seeds.now.addingTimeInterval(-327 * 86_400)
        )
        state.transactions = [Seeds.transaction(1), old]
        state.today = Seeds.now
        makeSUT().presentUpdate(response: .init(state: state))
        let rows = display.displayUpdateCalls.last!.transactions
        #expect((0..<rows.lineCount).map { rows.line(at: $0) } == [
            .month("November 2026"), .transaction(0, Seeds.transaction(1)), .month("December 2025"), .transaction(1, old),
        ])
        #expect(rows[0].text == "22 Nov  Merchant 1 · Groceries")
        #expect(rows[1].text == "30 Dec 2025  Old Shop · Gifts")
    }

    @Test("nothing spent over the days compared is said in plain words")
    func spendingNothingBefore() {
        func summary(totals: [Int64], days: ClosedRange<Int>) -> String {
            var spending = Seeds.spending
            spending.month = "2026-12"
            spending.previousMonth = "2026-11"
            spending.previousDays = days
            spending.totals = totals.map { Money(amountMinor: $0, currency: "USD") }
            spending.previousDaysTotals = []
            makeSUT().presentLoadSpending(response: .init(spending: spending, isShown: true, isLoading: false, error: nil))
            return display.displayLoadSpendingCalls.last!.summary
        }
        #expect(summary(totals: [1_200], days: 1...2) == "Spent $12.00 · nothing spent from November 1 to 2")
        #expect(summary(totals: [1_200], days: 1...1) == "Spent $12.00 · nothing spent on November 1")
        #expect(summary(totals: [], days: 1...2) == "Nothing spent yet, and nothing from November 1 to 2 either")
    }

    @Test("v is offered only while a card can be activated")
    func canActivate() {
        var state = loaded()
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.canActivateCard == true)
        state.cards[0].status = .active
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.canActivateCard == false)
        state.cards = []
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.canActivateCard == false)
    }
}
