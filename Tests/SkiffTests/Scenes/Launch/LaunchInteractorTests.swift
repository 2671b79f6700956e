import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
final class LaunchPresenterSpy: LaunchPresentationLogic {
    var starts: [Launch.Start.Response] = []
    func presentStart(response: Launch.Start.Response) { starts.append(response) }
}

@MainActor
@Suite("LaunchInteractor")
struct LaunchInteractorTests {
    @Test("a stored live session goes to Home")
    func storedSession() {
        let presenter = LaunchPresenterSpy()
        let sut = LaunchInteractor(presenter: presenter, sessions: SessionStoreDouble(Seeds.session), serverDescription: "x", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        guard case .home(Seeds.session) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("a stored session saved locked goes to Lock, never Home")
    func lockedSession() {
        var locked = Seeds.session
        locked.isLocked = true
        let sut = LaunchInteractor(presenter: LaunchPresenterSpy(), sessions: SessionStoreDouble(locked), serverDescription: "x", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        guard case .locked(locked) = routes.last, routes.count == 1 else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("an expired session is forgotten and Login shows")
    func expired() {
        var old = Seeds.session
        old.expiresAt = Seeds.now.addingTimeInterval(-1)
        let store = SessionStoreDouble(old)
        let sut = LaunchInteractor(presenter: LaunchPresenterSpy(), sessions: store, serverDescription: "x", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        guard case .login = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(store.load() == nil)
        #expect(store.clears == 1)
    }

    @Test("no session goes to Login")
    func none() {
        let sut = LaunchInteractor(presenter: LaunchPresenterSpy(), sessions: SessionStoreDouble(), serverDescription: "x", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        guard case .login = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }
}
