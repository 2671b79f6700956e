import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("LaunchInteractor")
struct LaunchInteractorTests {
    let presenter = LaunchPresentationLogicSpy()

    /// Starts Launch with `store` and returns where it routed, every route in order.
    private func routes(starting store: SessionStoreDouble) -> [LaunchRoute] {
        let sut = LaunchInteractor(presenter: presenter, sessions: store, serverDescription: "127.0.0.1:8080", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        return routes
    }

    @Test("a stored live session goes to Home, after naming the server")
    func storedSession() {
        let routes = routes(starting: SessionStoreDouble(Seeds.session))
        guard case .home(Seeds.session) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(presenter.presentStartCalls.map(\.serverDescription) == ["127.0.0.1:8080"])
    }

    @Test("a stored session saved locked goes to Lock, never Home")
    func lockedSession() {
        var locked = Seeds.session
        locked.isLocked = true
        let routes = routes(starting: SessionStoreDouble(locked))
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
        let routes = routes(starting: store)
        guard case .login = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(store.load() == nil)
        #expect(store.clears == 1)
    }

    @Test("no session goes to Login")
    func none() {
        let routes = routes(starting: SessionStoreDouble())
        guard case .login = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }
}
