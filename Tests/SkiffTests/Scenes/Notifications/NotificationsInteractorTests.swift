import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("NotificationsInteractor", .timeLimit(.minutes(3)))
struct NotificationsInteractorTests {
    let presenter = NotificationsPresentationLogicSpy()
    let worker = NotificationsWorkerDouble.succeeding
    let tasks = TaskTracker()
    func items() -> [AppNotification] {
        [
            Seeds.notification,
            AppNotification(id: "n_2", title: "Card shipped", body: "It is on its way.", createdAt: Seeds.now, read: true),
            AppNotification(id: "n_3", title: "Top-up", body: "You received $50.", createdAt: Seeds.now, read: false),
        ]
    }

    @Test("loads the notifications")
    func load() async {
        worker.listResult.set(.success(items()))
        let sut = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.isLoading == true)
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.items.count == 3)
        #expect(presenter.presentUpdateCalls.last?.state.isLoading == false)
    }

    @Test("Enter opens one and marks it read on the server; Esc closes it, then leaves with the count for Home")
    func openMarksRead() async {
        worker.listResult.set(.success(items()))
        let sut = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        var routes: [NotificationsRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.open(request: .init(index: 0))
        #expect(presenter.presentUpdateCalls.last?.state.openID == "n_1")
        #expect(presenter.presentUpdateCalls.last?.state.items[0].read == true, "read as it opens")
        await tasks.settle()
        #expect(worker.marked.all == ["n_1"])
        sut.back(request: .init())
        #expect(presenter.presentUpdateCalls.last?.state.openID == nil)
        #expect(routes.isEmpty, "the first Esc goes back to the list")
        sut.open(request: .init(index: 1))
        #expect(presenter.presentUpdateCalls.last?.state.openID == "n_2")
        await tasks.settle()
        #expect(worker.marked.all == ["n_1"], "one read already is not sent again")
        sut.back(request: .init())
        sut.back(request: .init())
        guard case .back = routes.last, routes.count == 1 else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("Enter on no row opens nothing")
    func openOutOfRange() async {
        worker.listResult.set(.success(items()))
        let sut = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut.load(request: .init())
        await tasks.settle()
        sut.open(request: .init(index: 7))
        #expect(presenter.presentUpdateCalls.last?.state.openID == nil)
        #expect(worker.marked.count == 0)
    }

    @Test("a reload that no longer has the open notification goes back to the list")
    func openGoneOnReload() async {
        worker.listResult.set(.success(items()))
        let sut = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut.load(request: .init())
        await tasks.settle()
        sut.open(request: .init(index: 2))
        await tasks.settle()
        worker.listResult.set(.success(Array(items().prefix(2))))
        sut.load(request: .init())
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.openID == nil)
    }

    @Test("a mark-read still reaches the server when the screen closes at once")
    func markReadSurvivesClose() async {
        worker.listResult.set(.success(items()))
        var sut: NotificationsInteractor? = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut?.load(request: .init())
        await tasks.settle()
        sut?.open(request: .init(index: 0))
        sut = nil
        await tasks.settle()
        #expect(worker.marked.all == ["n_1"])
    }

    @Test("mark all read, and a refused one is put back with the error")
    func markAllWithFailure() async {
        worker.listResult.set(.success(items()))
        worker.markResult.set(.failure(.server(status: 500, detail: "")))
        let sut = NotificationsInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut.load(request: .init())
        await tasks.settle()
        sut.markAllRead(request: .init())
        await tasks.settle()
        #expect(worker.marked.all == ["n_1", "n_3"])
        #expect(presenter.presentUpdateCalls.last?.state.items.filter { !$0.read }.count == 2)
        #expect(presenter.presentUpdateCalls.last?.state.error == .server(status: 500, detail: ""))
    }
}
