import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("TransactionPager", .timeLimit(.minutes(1)))
struct TransactionPagerTests {
    let account = AccountWorkerDouble.succeeding
    let tasks = TaskTracker()
    let host = PagedList()

    func makeSUT() -> TransactionPager<PagedList> {
        let sut = TransactionPager<PagedList>(account: account, pageSize: 50, tasks: tasks)
        sut.host = host
        return sut
    }

    func page(_ start: Int, next: String?) -> TransactionPage {
        TransactionPage(items: (start + 1...start + 50).map { Seeds.transaction($0) }, nextCursor: next)
    }

    /// A list of five pages of 50, the four after the first fetched with `c50` to `c200`, the end after them.
    func fivePages() -> TransactionWindow {
        var window = TransactionWindow(firstPage: page(0, next: "c50").items, nextCursor: "c50")
        for start in stride(from: 50, through: 200, by: 50) {
            window.append(page(start, next: nil).items, fetchedWith: "c\(start)", next: start < 200 ? "c\(start + 50)" : nil)
        }
        return window
    }

    @Test("the next page is asked for once at a time, with the list's cursor and words, and never while the host may not fetch pages")
    func nextPage() async {
        account.pages.set(.success(["c50": page(50, next: "c100")]))
        host.state.transactions = TransactionWindow(firstPage: page(0, next: "c50").items, nextCursor: "c50")
        host.state.query = "Merchant"
        let sut = makeSUT()
        host.mayFetchPages = false
        sut.loadMore()
        await tasks.settle()
        #expect(account.calls.count == 0)
        #expect(host.presented.isEmpty)

        host.mayFetchPages = true
        sut.loadMore()
        sut.loadMore()
        #expect(host.presented.map(\.isLoadingMore) == [true])
        await tasks.settle()
        #expect(account.calls.all.map(\.cursor) == ["c50"])
        #expect(account.calls.all.map(\.query) == ["Merchant"])
        #expect(host.state.transactions.count == 100)
        #expect(host.state.transactions.nextCursor == "c100")
        #expect(host.presented.map(\.isLoadingMore) == [true, false])
        #expect(host.told.isEmpty, "nothing failed, nothing told")
    }

    @Test("a failed page is told once, the next page that comes is told as its end, and a failure the host told already is not told again")
    func failureToldOnce() async {
        account.pages.set(.success(["c50": page(50, next: nil)]))
        host.state.transactions = TransactionWindow(firstPage: page(0, next: "c50").items, nextCursor: "c50")
        let sut = makeSUT()
        account.pageFailure.set(.failure(.unreachable))
        sut.loadMore()
        await tasks.settle()
        sut.loadMore()
        await tasks.settle()
        #expect(host.told == [.unreachable])
        #expect(host.state.error == .unreachable)

        account.pageFailure.set(.success(()))
        sut.loadMore()
        await tasks.settle()
        #expect(host.told == [.unreachable, nil])
        #expect(host.state.error == nil)

        host.state.error = .unreachable
        sut.toldFailure = true
        host.state.transactions = TransactionWindow(firstPage: page(0, next: "c50").items, nextCursor: "c50")
        account.pageFailure.set(.failure(.unreachable))
        sut.loadMore()
        await tasks.settle()
        #expect(host.told == [.unreachable, nil], "the first page's failure, told by the host, is not told again")
    }

    @Test("scrolling lets go of the pages far away, then fetches again those near the screen, one at a time with each one's cursor")
    func refill() async {
        account.pages.set(.success(["c50": page(50, next: "c100"), "c100": page(100, next: "c150")]))
        host.state.transactions = fivePages()
        let sut = makeSUT()
        sut.scroll(to: 240..<250)
        await tasks.settle()
        #expect(host.state.transactions[60] == nil)
        #expect(host.state.transactions[110] == nil)
        #expect(host.state.transactions[160] != nil)
        #expect(host.presented.count == 1)
        #expect(account.calls.count == 0, "the pages near the bottom are all held")

        host.mayFetchPages = false
        sut.scroll(to: 60..<70)
        await tasks.settle()
        #expect(host.state.transactions[160] == nil)
        #expect(account.calls.count == 0, "nothing is fetched while the host may not fetch pages")

        host.mayFetchPages = true
        let gate = Gate()
        account.gate = gate
        sut.scroll(to: 60..<70)
        await tasks.settle(leaving: { gate.held })
        #expect(account.calls.all.map(\.cursor) == ["c50"], "one page at a time")
        account.gate = nil
        gate.open()
        await tasks.settle()
        #expect(account.calls.all.map(\.cursor) == ["c50", "c100"])
        #expect(host.state.transactions[60]?.id == "t_61")
        #expect(host.state.transactions[110]?.id == "t_111")
        #expect(host.state.transactions[160] == nil)
    }
}

/// A list paged by `TransactionPager`, as a scene keeps it, that records what it shows and is told.
@MainActor
final class PagedList: TransactionPagerHost {
    struct State: PagedTransactionsState {
        var transactions = TransactionWindow()
        var query = ""
        var category: CategoryFilter?
        var isCached = false
        var isLoadingMore = false
        var error: NetworkError?
    }

    var state = State()
    var mayFetchPages = true
    /// The states presented, oldest first.
    private(set) var presented: [State] = []
    /// The page outcomes told, oldest first: an error, or nil for a page that came after one failed.
    private(set) var told: [NetworkError?] = []

    func present() { presented.append(state) }
    func pageOutcomeChanged(error: NetworkError?) { told.append(error) }
}
