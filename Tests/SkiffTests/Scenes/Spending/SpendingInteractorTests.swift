import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("SpendingInteractor", .timeLimit(.minutes(3)))
struct SpendingInteractorTests {
    let presenter = SpendingPresentationLogicSpy()
    let account = AccountWorkerDouble.succeeding
    let preferences = PreferencesStoreDouble()
    let tasks = TaskTracker()

    func makeSUT() -> SpendingInteractor {
        SpendingInteractor(presenter: presenter, account: account, preferences: preferences, tasks: tasks)
    }

    /// The state presented last.
    var shown: Spending.State? { presenter.presentUpdateCalls.last?.state }

    @Test("load asks for this month's spending and presents it, loading first")
    func load() async {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.isLoading == true)
        #expect(presenter.presentUpdateCalls.first?.state.isShown == true)
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
        #expect(shown?.spending == Seeds.spending)
        #expect(shown?.isLoading == false)
        #expect(shown?.error == nil)
    }

    @Test("a failed load presents the error and keeps what was shown; the next load that answers clears it")
    func loadFails() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        account.spendingResult.set(.failure(.unreachable))
        sut.load(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 2)
        #expect(shown?.error == .unreachable)
        #expect(shown?.spending == Seeds.spending)
        account.spendingResult.set(.success(Seeds.spending))
        sut.load(request: .init())
        #expect(shown?.error == nil, "a new load forgets the last one's error at once")
        await tasks.settle()
        #expect(shown?.error == nil)
    }

    @Test("a hidden panel loads nothing; g shows it, loads it and remembers it, g again hides it")
    func toggle() async {
        preferences.saveHidesSpending(true)
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 0)
        #expect(shown?.isShown == false)

        sut.toggle(request: .init())
        #expect(!preferences.hidesSpending())
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
        #expect(shown?.isShown == true)
        #expect(shown?.spending == Seeds.spending)

        sut.toggle(request: .init())
        #expect(preferences.hidesSpending())
        #expect(shown?.isShown == false)
        sut.load(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
    }

    @Test("hiding the panel while it loads drops the load: its late answer is not shown")
    func hideWhileLoading() async {
        let gate = Gate()
        account.gate = gate
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(shown?.isLoading == true)
        sut.toggle(request: .init())
        #expect(shown?.isShown == false)
        #expect(shown?.isLoading == false)
        let presented = presenter.presentUpdateCalls.count
        gate.open()
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.count == presented)
        #expect(sut.state.spending == nil)
    }

    @Test("Enter on a category routes to its transactions in the panel's month; no category, no route")
    func selectCategory() async {
        var routes: [SpendingRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.selectCategory(request: .init(index: 0))
        #expect(routes.isEmpty, "nothing loaded yet")
        sut.load(request: .init())
        await tasks.settle()
        sut.selectCategory(request: .init(index: 1))
        sut.selectCategory(request: .init(index: 9))
        #expect(routes == [.category(name: "Groceries", month: "2026-11")])
        sut.toggle(request: .init())
        sut.selectCategory(request: .init(index: 0))
        #expect(routes.count == 1, "a hidden panel has nothing to pick")
    }

    @Test("back online after a failed load asks again and the error goes; with nothing failed it asks for nothing")
    func onlineRetries() async {
        account.spendingResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(shown?.error == .unreachable)
        sut.live(request: .init(update: .offline))
        sut.live(request: .init(update: .event(.cardChanged)))
        #expect(account.spendingCalls.count == 1, "only coming back online retries")
        account.spendingResult.set(.success(Seeds.spending))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.spendingCalls.count == 2)
        #expect(shown?.error == nil)
        #expect(shown?.spending == Seeds.spending)
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.spendingCalls.count == 2)
    }

    @Test("a hidden panel is not asked for again when the stream comes back")
    func onlineWhileHidden() async {
        account.spendingResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.toggle(request: .init())
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
    }

    @Test("once stopped (log out) the load in flight is dropped and nothing more is asked for")
    func stop() async {
        let gate = Gate()
        account.gate = gate
        let sut = makeSUT()
        sut.load(request: .init())
        sut.stop(request: .init())
        gate.open()
        await tasks.settle()
        #expect(sut.state.spending == nil)
        sut.load(request: .init())
        sut.toggle(request: .init())
        sut.toggle(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
    }
}
