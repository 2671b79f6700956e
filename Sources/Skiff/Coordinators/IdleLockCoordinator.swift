import SkiffCore
import TerminalUI

/// While someone is signed in: covers every screen (modals included) with Lock after a while without a key, when
/// the server answers that the session is locked, or at once when it was locked when Skiff last ran; takes the
/// cover away once the server accepts the password, leaving the screens as they were but for their secrets
/// (passwords, codes, card numbers), which are emptied when locking.
@MainActor
final class IdleLockCoordinator: FinishingCoordinator {
    enum Event {
        /// Logged out from the lock.
        case loggedOut
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    /// The password was accepted; the argument says why the session had been locked.
    var onUnlock: (LockReason) -> Void = { _ in }
    /// Called when Lock goes up, before it is drawn.
    var onLock: () -> Void = {}
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let session: Session
    /// Counts the time without a key; nil when the app never locks by itself (`--lock-after 0`).
    private let timer: IdleTimer?
    /// The Lock screen while locked.
    private(set) var lockScreen: LockViewController?

    init(navigation: NavigationController, factory: SceneFactory, session: Session, settings: IdleLockSettings?) {
        self.navigation = navigation
        self.factory = factory
        self.session = session
        timer = settings.map { IdleTimer(timeout: $0.after, clock: $0.clock) }
    }

    var isLocked: Bool { lockScreen != nil }

    /// Starts counting, unless locked already.
    func start() {
        timer?.onIdle = { [weak self] in self?.lock(.idle) }
        if !isLocked { timer?.start() }
    }

    /// A key was pressed: the idle time starts again.
    func userDidType() {
        timer?.noteActivity()
    }

    /// Empties the secrets of every screen, marks the session locked (the saved file first, then the server),
    /// and only then covers every screen with Lock.
    func lock(_ reason: LockReason) {
        guard !isLocked else { return }
        timer?.stop()
        onLock()
        for controller in navigation.viewControllers + navigation.presentedViewControllers where controller.isViewLoaded {
            controller.view.clearSecrets()
        }
        let (controller, interactor) = factory.lock(userName: session.user.fullName, reason: reason)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .unlocked:
                removeLock()
                timer?.start()
                onUnlock(reason)
            case .loggedOut:
                stop()
                onFinish(.loggedOut)
            }
        }
        interactor.engage(request: .init())
        lockScreen = controller
        navigation.cover(with: controller)
    }

    /// Stops counting and takes the lock away (the session ended).
    func stop() {
        timer?.stop()
        removeLock()
    }

    private func removeLock() {
        guard isLocked else { return }
        navigation.uncover()
        lockScreen = nil
    }
}
