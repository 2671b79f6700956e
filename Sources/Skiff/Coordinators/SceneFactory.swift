import SkiffCore

/// Wires one scene: the ViewController holds the Interactor, the Interactor the Presenter, the Presenter the
/// ViewController weakly. The caller sets the Interactor's route.
@MainActor
struct SceneFactory {
    let dependencies: AppDependencies

    func launch() -> (LaunchViewController, LaunchInteractor) {
        let presenter = LaunchPresenter()
        let interactor = LaunchInteractor(
            presenter: presenter, sessions: dependencies.sessions, serverDescription: dependencies.serverDescription,
            clock: dependencies.clock
        )
        let controller = LaunchViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func login(notice: Login.Notice?) -> (LoginViewController, LoginInteractor) {
        let presenter = LoginPresenter(formatting: dependencies.formatting)
        let interactor = LoginInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions,
            preferences: dependencies.preferences, demo: dependencies.demo, notice: notice, clock: dependencies.clock
        )
        let controller = LoginViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func register(prefill: LastLogin?) -> (RegisterViewController, RegisterInteractor) {
        let presenter = RegisterPresenter(formatting: dependencies.formatting)
        let interactor = RegisterInteractor(presenter: presenter, auth: dependencies.auth, prefill: prefill)
        let controller = RegisterViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func verifyPhone(registration: Registration, challenge: VerificationChallenge) -> (VerifyPhoneViewController, VerifyPhoneInteractor) {
        let presenter = VerifyPhonePresenter(formatting: dependencies.formatting)
        let interactor = VerifyPhoneInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions, outbox: dependencies.outbox,
            registration: registration, challenge: challenge, clock: dependencies.clock
        )
        let controller = VerifyPhoneViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func forgotPassword(prefill: LastLogin?) -> (ForgotPasswordViewController, ForgotPasswordInteractor) {
        let presenter = ForgotPasswordPresenter(formatting: dependencies.formatting)
        let interactor = ForgotPasswordInteractor(
            presenter: presenter, auth: dependencies.auth, outbox: dependencies.outbox, prefill: prefill, clock: dependencies.clock
        )
        let controller = ForgotPasswordViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func home(session: Session) -> (HomeViewController, HomeInteractor) {
        let presenter = HomePresenter(formatting: dependencies.formatting)
        let interactor = HomeInteractor(
            presenter: presenter, account: dependencies.account, cards: dependencies.cards, auth: dependencies.auth,
            sessions: dependencies.sessions, cache: dependencies.cache, session: session, clock: dependencies.clock
        )
        let controller = HomeViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func transactionDetail(_ transaction: Transaction) -> (TransactionDetailViewController, TransactionDetailInteractor) {
        let presenter = TransactionDetailPresenter(formatting: dependencies.formatting)
        let interactor = TransactionDetailInteractor(presenter: presenter, transaction: transaction)
        let controller = TransactionDetailViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func notifications() -> (NotificationsViewController, NotificationsInteractor) {
        let presenter = NotificationsPresenter(formatting: dependencies.formatting)
        let interactor = NotificationsInteractor(presenter: presenter, worker: dependencies.notifications)
        let controller = NotificationsViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func addCard(holderName: String) -> (AddCardViewController, AddCardInteractor) {
        let presenter = AddCardPresenter(formatting: dependencies.formatting)
        let interactor = AddCardInteractor(
            presenter: presenter, worker: dependencies.cards, holderName: holderName, clock: dependencies.clock
        )
        let controller = AddCardViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func activateCard(_ card: Card, phoneE164: String) -> (ActivateCardViewController, ActivateCardInteractor) {
        let presenter = ActivateCardPresenter(formatting: dependencies.formatting)
        let interactor = ActivateCardInteractor(
            presenter: presenter, worker: dependencies.cards, outbox: dependencies.outbox, card: card,
            phoneE164: phoneE164, clock: dependencies.clock
        )
        let controller = ActivateCardViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }
}
