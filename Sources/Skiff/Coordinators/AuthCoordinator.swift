import SkiffCore
import TerminalUI

/// Login, with Register → Verify phone and Forgot password over it as child flows.
@MainActor
final class AuthCoordinator: FinishingCoordinator {
    enum Event {
        /// Signed in (by login or by verifying a new account).
        case finished(Session)
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let notice: Login.Notice?
    private weak var login: (any LoginBusinessLogic)?
    /// The Idempotency-Keys of the codes sent from Verify phone, new with each Register.
    private var verifyKeys = RetryKeys<[String]>()

    init(navigation: NavigationController, factory: SceneFactory, notice: Login.Notice?) {
        self.navigation = navigation
        self.factory = factory
        self.notice = notice
    }

    func start() {
        let (controller, interactor) = factory.login(notice: notice)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .loggedIn(let session): self.onFinish(.finished(session))
            case .register(let prefill): self.showRegister(prefill: prefill)
            case .forgotPassword(let prefill): self.showForgotPassword(prefill: prefill)
            }
        }
        login = interactor
        navigation.setViewControllers([controller])
    }

    private func showRegister(prefill: LastLogin) {
        verifyKeys = RetryKeys()
        startChild(SceneFlowCoordinator<Never>(navigation: navigation) { [weak self, factory] finish in
            let (controller, interactor) = factory.register(prefill: prefill)
            interactor.route = { route in
                switch route {
                case .verify(let registration, let challenge): self?.showVerify(registration: registration, challenge: challenge)
                case .back: finish(nil)
                }
            }
            return controller
        })
    }

    /// Verify phone over Register; a verified code ends the whole flow (the app then replaces every screen).
    private func showVerify(registration: Registration, challenge: VerificationChallenge) {
        startChild(SceneFlowCoordinator<Never>(navigation: navigation) { [weak self, factory, verifyKeys] finish in
            let (controller, interactor) = factory.verifyPhone(registration: registration, challenge: challenge, keys: verifyKeys)
            interactor.route = { route in
                switch route {
                case .verified(let session): self?.onFinish(.finished(session))
                case .back: finish(nil)
                }
            }
            return controller
        })
    }

    /// Forgot password over Login; a reset pops back to Login, which is told the new password's login.
    private func showForgotPassword(prefill: LastLogin) {
        let flow = SceneFlowCoordinator<LastLogin>(navigation: navigation) { [factory] finish in
            let (controller, interactor) = factory.forgotPassword(prefill: prefill)
            interactor.route = { route in
                switch route {
                case .passwordReset(let login): finish(login)
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(flow) { [weak self] event in
            if case .finished(let login?) = event { self?.login?.passwordChanged(request: .init(login: login)) }
        }
    }
}
