import SkiffCore
import TerminalUI

/// Login, with Register → Verify phone and Forgot password pushed over it.
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
        let (controller, interactor) = factory.register(prefill: prefill)
        verifyKeys = RetryKeys()
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .verify(let registration, let challenge): self.showVerify(registration: registration, challenge: challenge)
            case .back: _ = self.navigation.pop()
            }
        }
        navigation.push(controller)
    }

    private func showVerify(registration: Registration, challenge: VerificationChallenge) {
        let (controller, interactor) = factory.verifyPhone(registration: registration, challenge: challenge, keys: verifyKeys)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .verified(let session): self.onFinish(.finished(session))
            case .back: _ = self.navigation.pop()
            }
        }
        navigation.push(controller)
    }

    private func showForgotPassword(prefill: LastLogin) {
        let (controller, interactor) = factory.forgotPassword(prefill: prefill)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .passwordReset(let login):
                _ = self.navigation.popToRoot()
                self.login?.passwordChanged(request: .init(login: login))
            case .back:
                _ = self.navigation.pop()
            }
        }
        navigation.push(controller)
    }
}
