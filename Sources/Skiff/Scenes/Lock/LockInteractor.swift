import SkiffCore
import TerminalUI

@MainActor
protocol LockBusinessLogic: AnyObject {
    func load(request: Lock.Load.Request)
    func unlock(request: Lock.Unlock.Request)
    func logout(request: Lock.Logout.Request)
}

/// Where Lock sends the person next.
enum LockRoute: Sendable {
    /// The server accepted the password: show what was there.
    case unlocked
    /// The session was ended from the lock.
    case loggedOut
}

/// Checks the password with the server (a wrong one counts toward the sign-in throttle there), or logs out.
@MainActor
final class LockInteractor: LockBusinessLogic {
    private let presenter: any LockPresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    private let cache: any CacheStoring
    private let userName: String
    let request: RequestInFlight
    var route: (LockRoute) -> Void = { _ in }

    init(
        presenter: any LockPresentationLogic, auth: any AuthWorking, sessions: any SessionStoring, cache: any CacheStoring,
        userName: String, tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        self.cache = cache
        self.userName = userName
        request = RequestInFlight(tasks: tasks)
    }

    func load(request: Lock.Load.Request) {
        presenter.presentLoad(response: .init(userName: userName))
    }

    func unlock(request: Lock.Unlock.Request) {
        guard !self.request.isRunning else { return }
        guard !request.password.isEmpty else {
            presenter.presentUnlock(response: .empty)
            return
        }
        presenter.presentUnlock(response: .started)
        let password = request.password
        self.request.call({ [auth] () async throws(NetworkError) in
            try await auth.unlock(password: password)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: route(.unlocked)
            case .failure(let error): presenter.presentUnlock(response: .refused(error))
            }
        })
    }

    func logout(request: Lock.Logout.Request) {
        self.request.abandon()
        presenter.presentLogout(response: .init())
        // The server revokes the token; if it cannot be reached the token is still forgotten here.
        self.request.start({ [auth] in try? await auth.logout() }, then: { [weak self] _ in
            guard let self else { return }
            sessions.clear()
            cache.clear()
            route(.loggedOut)
        })
    }
}
