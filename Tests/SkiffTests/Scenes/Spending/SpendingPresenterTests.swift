import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("SpendingPresenter")
struct SpendingPresenterTests {
    let display = SpendingDisplayLogicSpy()

    func makeSUT(formatting: Formatting = Seeds.utc) -> SpendingPresenter {
        let sut = SpendingPresenter(formatting: formatting)
        sut.viewController = display
        return sut
    }

    /// What the panel shows for `spending` in that state.
    func present(
        _ spending: MonthlySpending?, isShown: Bool = true, isLoading: Bool = false, error: NetworkError? = nil
    ) -> Spending.UpdateViewModel? {
        let state = Spending.State(spending: spending, isShown: isShown, isLoading: isLoading, error: error)
        makeSUT().presentUpdate(response: .init(state: state))
        return display.displayUpdateCalls.last
    }

    @Test("the month's name, a bar per category with its amount, the total and the change")
    func spending() throws {
        let vm = try #require(present(Seeds.spending))
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

    @Test("less than the same days of last month, the same, nothing then, nothing this month")
    func change() {
        func summary(_ totals: [Int64], _ previous: [Int64]) -> String? {
            var spending = Seeds.spending
            spending.totals = totals.map { Money(amountMinor: $0, currency: "USD") }
            spending.previousDaysTotals = previous.map { Money(amountMinor: $0, currency: "USD") }
            return present(spending)?.summary
        }
        #expect(summary([50_000], [100_000]) == "Spent $500.00 · 50% less than October 1–22 ($1,000.00)")
        #expect(summary([100_200], [100_000]) == "Spent $1,002.00 · about the same as October 1–22 ($1,000.00)")
        #expect(summary([100_000], []) == "Spent $1,000.00 · nothing spent from October 1 to 22")
        #expect(summary([], [100_000]) == "Spent nothing yet · 100% less than October 1–22 ($1,000.00)")
    }

    @Test("the days compared are the ones the server answered: one day, or all of a shorter month")
    func days() {
        func summary(month: String, previousMonth: String, days: ClosedRange<Int>) -> String? {
            var spending = Seeds.spending
            spending.month = month
            spending.previousMonth = previousMonth
            spending.previousDays = days
            return present(spending)?.summary
        }
        #expect(summary(month: "2026-12", previousMonth: "2026-11", days: 1...1)
            == "Spent $1,332.40 · 12% more than November 1 ($1,189.00)")
        #expect(summary(month: "2027-03", previousMonth: "2027-02", days: 1...28)
            == "Spent $1,332.40 · 12% more than February 1–28 ($1,189.00)")
        #expect(display.displayUpdateCalls.last?.title == "Spending · March")
    }

    @Test("nothing spent over the days compared is said in plain words")
    func nothingBefore() {
        func summary(totals: [Int64], days: ClosedRange<Int>) -> String? {
            var spending = Seeds.spending
            spending.month = "2026-12"
            spending.previousMonth = "2026-11"
            spending.previousDays = days
            spending.totals = totals.map { Money(amountMinor: $0, currency: "USD") }
            spending.previousDaysTotals = []
            return present(spending)?.summary
        }
        #expect(summary(totals: [1_200], days: 1...2) == "Spent $12.00 · nothing spent from November 1 to 2")
        #expect(summary(totals: [1_200], days: 1...1) == "Spent $12.00 · nothing spent on November 1")
        #expect(summary(totals: [], days: 1...2) == "Nothing spent yet, and nothing from November 1 to 2 either")
    }

    @Test("amounts at the ends of their range give a sane change, not a trap")
    func changeAtTheLimits() {
        func summary(_ total: Int64, _ previous: Int64) -> String {
            var spending = Seeds.spending
            spending.totals = [Money(amountMinor: total, currency: "USD")]
            spending.previousDaysTotals = [Money(amountMinor: previous, currency: "USD")]
            return present(spending)?.summary ?? ""
        }
        #expect(summary(.max, 1).hasSuffix("· far more than October 1–22 ($0.01)"))
        #expect(summary(.min, 1).hasSuffix("· far less than October 1–22 ($0.01)"))
        #expect(summary(.max, .max).hasSuffix("· about the same as October 1–22 ($92,233,720,368,547,758.07)"))
        #expect(SpendingPresenter.percentChange(from: 100_000, to: 112_000) == 12)
        #expect(SpendingPresenter.percentChange(from: 100_000, to: 88_000) == -12)
        #expect(SpendingPresenter.percentChange(from: 1, to: .max) == nil)
        #expect(SpendingPresenter.percentChange(from: 0, to: 5) == nil)
    }

    @Test("at most six bars, the largest; loading, failure and empty wording")
    func states() {
        var many = Seeds.spending
        many.categories = (1...9).map { .init(name: "C\($0)", amount: Money(amountMinor: Int64(1_000 - $0), currency: "USD")) }
        #expect(present(many)?.bars.map(\.category) == ["C1", "C2", "C3", "C4", "C5", "C6"])

        let loading = present(nil, isLoading: true)
        #expect(loading?.emptyText == "Loading spending…")
        #expect(loading?.title == "Spending")
        #expect(loading?.summary == "")
        #expect(present(nil, error: .unreachable)?.emptyText == "Can't reach the server. Check the connection and try again.")
        #expect(present(nil, error: .cancelled)?.emptyText == "Spending could not be loaded.", "an error with no words of its own")
        #expect(present(nil)?.emptyText == "", "nothing asked for yet: nothing said")
        var none = Seeds.spending
        none.categories = []
        none.totals = []
        let empty = present(none, isShown: false)
        #expect(empty?.emptyText == "Nothing spent yet this month.")
        #expect(empty?.isShown == false)
    }

    @Test("a failed refresh over the month shown keeps the bars, and says nothing in their place")
    func failureKeepsBars() {
        let vm = present(Seeds.spending, error: .unreachable)
        #expect(vm?.bars.count == 3)
        #expect(vm?.emptyText == nil)
    }

    @Test("amounts blur while the display does, presented again when it changes")
    func blur() {
        let privacy = DisplayPrivacy()
        let sut = makeSUT(formatting: Formatting(timeZone: Seeds.utc.timeZone, privacy: privacy))
        sut.presentUpdate(response: .init(state: Spending.State(spending: Seeds.spending, isShown: true)))
        privacy.isBlurred = true
        #expect(display.displayUpdateCalls.count == 2)
        #expect(display.displayUpdateCalls.last?.bars.map(\.amount) == ["•••", "•••", "•••"])
        #expect(display.displayUpdateCalls.last?.summary.contains("$") == false)
        privacy.isBlurred = false
        #expect(display.displayUpdateCalls.last?.bars.first?.amount == "$900.00")
    }
}
