import SkiffCore

@MainActor
protocol LaunchBusinessLogic: AnyObject {
    func start(request: Launch.Start.Request)
}

/// A stored, unexpired session goes to Home, or to Lock when it was saved locked; anything else to Login (an
/// expired session is forgotten, and an unreadable one was set aside by the store: Login says so).
@MainActor
final class LaunchInteractor: LaunchBusinessLogic {
    private let presenter: any LaunchPresentationLogic
    private let sessions: any SessionStoring
    private let clock: SceneClock
    private let serverDescription: String
    var route: (LaunchRoute) -> Void = { _ in }

    init(presenter: any LaunchPresentationLogic, sessions: any SessionStoring, serverDescription: String, clock: SceneClock = .live) {
        self.presenter = presenter
        self.sessions = sessions
        self.serverDescription = serverDescription
        self.clock = clock
    }

    func start(request: Launch.Start.Request) {
        presenter.presentStart(response: .init(serverDescription: serverDescription))
        let stored: Session?
        do {
            stored = try sessions.load()
        } catch {
            route(.login(.savedSessionUnreadable))
            return
        }
        if let session = stored {
            if !session.isExpired(at: clock.now()) {
                route(session.isLocked ? .locked(session) : .home(session))
                return
            }
            sessions.clear()
        }
        route(.login(nil))
    }
}
