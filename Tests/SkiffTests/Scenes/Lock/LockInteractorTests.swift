import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Lock interactor", .timeLimit(.minutes(3)))
struct LockInteractorTests {
    let presenter = LockPresentationLogicSpy()
    let auth = AuthWorkerDouble.succeeding
    let sessions = SessionStoreDouble(Seeds.session)
    let cache = CacheStoreDouble()
    let tasks = TaskTracker()

    func makeSUT() -> LockInteractor {
        LockInteractor(presenter: presenter, auth: auth, sessions: sessions, cache: cache, userName: "Alex Rivera", tasks: tasks)
    }

    @Test("load presents whose session is locked, and why")
    func load() {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.map(\.userName) == ["Alex Rivera"])
        #expect(presenter.presentLoadCalls.map(\.reason) == [.idle])
        let restarted = LockInteractor(
            presenter: presenter, auth: auth, sessions: sessions, cache: cache, userName: "Alex Rivera",
            reason: .lockedBefore, tasks: tasks
        )
        restarted.load(request: .init())
        #expect(presenter.presentLoadCalls.last?.reason == .lockedBefore)
    }

    @Test("engage marks the saved session locked at once, before the server is told, then tells it")
    func engage() async {
        let gate = Gate()
        auth.lockGate = gate
        let sut = makeSUT()
        sut.engage(request: .init())
        // Nothing has run off the main actor yet: the file says locked already.
        #expect(sessions.load()?.isLocked == true)
        #expect(auth.lockCalls.count == 0)
        gate.open()
        await tasks.settle()
        #expect(auth.lockCalls.all == ["lock"])
        #expect(sessions.load()?.isLocked == true)
    }

    @Test("offline, the lock still holds: the saved session stays locked and nothing is shown for it")
    func engageOffline() async {
        auth.lockResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.engage(request: .init())
        await tasks.settle()
        #expect(auth.locks.count == 1)
        #expect(sessions.load()?.isLocked == true)
        #expect(presenter.presentSubmitCalls.isEmpty)
    }

    @Test("an accepted password clears the saved lock; a refused one leaves it")
    func unlockClearsSavedLock() async {
        let sut = makeSUT()
        sut.engage(request: .init())
        auth.unlockResult.set(.failure(.validation(detail: "The password is not right.", fields: [])))
        sut.submit(request: .init(form: .init(password: "wrong")))
        await tasks.settle()
        #expect(sessions.load()?.isLocked == true)
        auth.unlockResult.set(.success(()))
        sut.submit(request: .init(form: .init(password: "harbour-lights-9")))
        await tasks.settle()
        #expect(sessions.load()?.isLocked == false)
        #expect(sessions.load()?.token == Seeds.session.token)
    }

    @Test("an unlock typed while the lock is still on its way reaches the server after it")
    func unlockWaitsForLock() async {
        let gate = Gate()
        auth.lockGate = gate
        let sut = makeSUT()
        var routes: [LockRoute] = []
        sut.route = { routes.append($0) }
        sut.engage(request: .init())
        sut.submit(request: .init(form: .init(password: "harbour-lights-9")))
        for _ in 0..<20 { await Task.yield() }
        #expect(auth.unlocks.count == 0)
        gate.open()
        await tasks.settle()
        #expect(auth.lockCalls.all == ["lock", "unlock"])
        if case .unlocked? = routes.first {} else { Issue.record("expected .unlocked, got \(routes)") }
    }

    @Test("the password the server accepts routes to unlocked")
    func unlockAccepted() async {
        let sut = makeSUT()
        var routes: [LockRoute] = []
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: .init(password: "harbour-lights-9")))
        await tasks.settle()
        #expect(auth.unlocks.all == ["harbour-lights-9"])
        #expect(routes.count == 1)
        if case .unlocked? = routes.first {} else { Issue.record("expected .unlocked, got \(routes)") }
        guard case .started? = presenter.presentSubmitCalls.first else {
            Issue.record("expected .started first")
            return
        }
    }

    @Test("a refused password is presented and stays locked")
    func unlockRefused() async {
        auth.unlockResult.set(.failure(.validation(detail: "The password is not right.", fields: [])))
        let sut = makeSUT()
        var routes: [LockRoute] = []
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: .init(password: "wrong")))
        await tasks.settle()
        #expect(routes.isEmpty)
        guard case .failed(.validation)? = presenter.presentSubmitCalls.last else {
            Issue.record("expected a refusal, got \(presenter.presentSubmitCalls)")
            return
        }
    }

    @Test("an empty password never reaches the server")
    func unlockEmpty() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(password: "")))
        await tasks.settle()
        #expect(auth.unlocks.count == 0)
        guard case .invalid([.password: .password(.empty)])? = presenter.presentSubmitCalls.last else {
            Issue.record("expected the empty password refused, got \(presenter.presentSubmitCalls)")
            return
        }
    }

    @Test("leaving the password field empty says so there")
    func validateField() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .password, form: .init(password: "")))
        sut.validateField(request: .init(field: .password, form: .init(password: "harbour-lights-9")))
        #expect(presenter.presentValidateFieldCalls.map(\.problem) == [.password(.empty), nil])
    }

    @Test("Esc stops a password check on its way, and the lock stays")
    func back() async {
        auth.gate = Gate()
        let sut = makeSUT()
        var routes: [LockRoute] = []
        sut.route = { routes.append($0) }
        sut.engage(request: .init())
        sut.submit(request: .init(form: .init(password: "harbour-lights-9")))
        await tasks.settle { auth.gate?.held ?? 0 }
        sut.back(request: .init())
        await tasks.settle()
        #expect(routes.isEmpty)
        #expect(sessions.load()?.isLocked == true)
        guard case .failed(.cancelled)? = presenter.presentSubmitCalls.last else {
            Issue.record("expected the check cancelled, got \(presenter.presentSubmitCalls)")
            return
        }
    }

    @Test("logout revokes the session, forgets it and the cache, and routes out")
    func logout() async {
        let sut = makeSUT()
        var routes: [LockRoute] = []
        sut.route = { routes.append($0) }
        sut.logout(request: .init())
        await tasks.settle()
        #expect(auth.logouts.count == 1)
        #expect(sessions.load() == nil)
        #expect(cache.clears == 1)
        #expect(presenter.presentLogoutCalls.count == 1)
        if case .loggedOut? = routes.first {} else { Issue.record("expected .loggedOut, got \(routes)") }
    }
}
