import SkiffCore
import TerminalUI

/// The root of the app: Launch decides, then Auth, or Home with the idle lock beside it, runs as its children; a
/// logout or a 401 anywhere clears the stack and returns to Login; a locked session (saved so, or answered so by
/// the server) shows Lock.
@MainActor
final class AppCoordinator: Coordinator {
    var children: [any Coordinator] = []
    private let navigation: NavigationController
    private let dependencies: AppDependencies
    private let factory: SceneFactory
    private let idleLockSettings: IdleLockSettings?
    /// Locks the app when left alone, while someone is signed in.
    private(set) var idleLock: IdleLockCoordinator?
    /// The live event stream, while someone is signed in.
    private(set) var liveFeed: LiveFeed?

    /// `tasks` is where the scenes' async work runs (the application's tracked tasks); with `idleLock` nil the app
    /// never locks by itself, but still shows Lock for a session that is locked.
    init(navigation: NavigationController, dependencies: AppDependencies, tasks: TaskTracker, idleLock: IdleLockSettings? = nil) {
        self.navigation = navigation
        self.dependencies = dependencies
        factory = SceneFactory(dependencies: dependencies, tasks: tasks)
        idleLockSettings = idleLock
    }

    /// A key was pressed somewhere.
    func userDidType() {
        idleLock?.userDidType()
    }

    func start() {
        let (controller, interactor) = factory.launch()
        interactor.route = { [weak self] route in
            switch route {
            case .home(let session): self?.showHome(session)
            case .locked(let session): self?.showHome(session, locked: true)
            case .login(let notice): self?.showAuth(notice: notice)
            }
        }
        navigation.setViewControllers([controller])
        controller.start()
    }

    /// The server said the session is gone: forget it and go back to Login.
    func sessionDidExpire() {
        guard children.contains(where: { $0 is HomeCoordinator }) else { return }
        dependencies.session.forget()
        showAuth(notice: .sessionEnded)
    }

    /// The server said the session is locked: cover every screen with Lock until the password is given again.
    func sessionDidLock() {
        idleLock?.lock(.server)
    }

    private func showAuth(notice: Login.Notice?) {
        stopIdleLock()
        stopLiveFeed()
        dependencies.tokens.set(nil)
        children.removeAll()
        startChild(AuthCoordinator(navigation: navigation, factory: factory, notice: notice)) { [weak self] event in
            switch event {
            case .finished(let session): self?.showHome(session)
            }
        }
    }

    /// Home, under Lock when `locked`: the cover goes on first, so Home is not even loaded (no cached account
    /// read, no request) until the password is accepted.
    private func showHome(_ session: Session, locked: Bool = false) {
        stopIdleLock()
        stopLiveFeed()
        dependencies.tokens.set(session.token)
        children.removeAll()
        let lock = IdleLockCoordinator(navigation: navigation, factory: factory, session: session, settings: idleLockSettings)
        idleLock = lock
        if locked { lock.lock(.lockedBefore) }
        let home = HomeCoordinator(navigation: navigation, factory: factory, session: session)
        startChild(home) { [weak self] event in
            switch event {
            case .finished: self?.showAuth(notice: .loggedOut)
            }
        }
        // The stream would tell of the revoked session before the logout's answer, and Login would call it an expiry.
        home.onLoggingOut = { [weak self] in self?.stopLiveFeed() }
        let feed = dependencies.liveEvents.map(LiveFeed.init(worker:))
        feed?.onUpdate = { [weak home] update in home?.live(update) }
        feed?.onSessionLocked = { [weak self] in self?.sessionDidLock() }
        feed?.onSessionRevoked = { [weak self] in self?.sessionDidExpire() }
        liveFeed = feed
        lock.onLock = { [weak feed] in feed?.stop() }
        // The stream, which a lock ends, starts again once unlocked from the last event it delivered: its catch-up
        // brings the money that came and went while Home was covered, and its `online` has Home fetch again what
        // a lock by the server's answer refused.
        lock.onUnlock = { [weak feed] _ in feed?.start() }
        startChild(lock) { [weak self] event in
            switch event {
            case .loggedOut: self?.showAuth(notice: .loggedOut)
            }
        }
        if !locked { feed?.start() }
    }

    private func stopLiveFeed() {
        liveFeed?.stop()
        liveFeed = nil
    }

    private func stopIdleLock() {
        idleLock?.stop()
        idleLock = nil
    }
}
