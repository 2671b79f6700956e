import SkiffCore
import TerminalUI

/// Builds scenes from the app's dependencies. The caller sets the Interactor's route.
@MainActor
struct SceneFactory {
    let dependencies: AppDependencies
    /// The app's tracked tasks, where every scene's async work runs.
    let tasks: TaskTracker

    /// Connects one scene: the controller holds the Interactor, the Interactor the Presenter, the Presenter
    /// the controller weakly. `logic` and `display` only name the protocols (`{ $0 }`), so the compiler checks
    /// that each part conforms.
    func assemble<Controller: SceneDisplay, Presenter: ScenePresentation, Interactor: AnyObject>(
        _ controller: Controller, _ interactor: Interactor, _ presenter: Presenter,
        logic: (Interactor) -> Controller.BusinessLogic, display: (Controller) -> Presenter.DisplayLogic
    ) -> (Controller, Interactor) {
        controller.interactor = logic(interactor)
        presenter.viewController = display(controller)
        return (controller, interactor)
    }

    private var formatting: Formatting { dependencies.formatting }
    private var clock: SceneClock { dependencies.clock }
    /// The app's key map, for the scenes' controllers and the Presenters that name keys.
    var keys: WalletKeys { dependencies.keys }
    var codes: DevelopmentCodes { DevelopmentCodes(outbox: dependencies.outbox, clock: clock) }

    func launch() -> (LaunchViewController, LaunchInteractor) {
        let presenter = LaunchPresenter()
        let interactor = LaunchInteractor(
            presenter: presenter, sessions: dependencies.sessions, serverDescription: dependencies.serverDescription, clock: clock
        )
        return assemble(LaunchViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func login(notice: Login.Notice?) -> (LoginViewController, LoginInteractor) {
        let presenter = LoginPresenter(formatting: formatting)
        let interactor = LoginInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions,
            preferences: dependencies.preferences, demo: dependencies.demo, notice: notice, clock: clock, tasks: tasks
        )
        return assemble(LoginViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func register(prefill: LastLogin?) -> (RegisterViewController, RegisterInteractor) {
        let presenter = RegisterPresenter(formatting: formatting)
        let interactor = RegisterInteractor(presenter: presenter, auth: dependencies.auth, prefill: prefill, tasks: tasks)
        return assemble(RegisterViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    /// `keys`: the Idempotency-Keys of the codes sent so far in this registration, so that a code sent again from
    /// a Verify phone built again (Esc, then back) carries the key it carried the first time.
    func verifyPhone(
        registration: Registration, challenge: VerificationChallenge, keys: RetryKeys<[String]>
    ) -> (VerifyPhoneViewController, VerifyPhoneInteractor) {
        let presenter = VerifyPhonePresenter(formatting: formatting)
        let interactor = VerifyPhoneInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions, codes: codes,
            registration: registration, challenge: challenge, tasks: tasks, verifyKeys: keys
        )
        return assemble(VerifyPhoneViewController(keys: dependencies.keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func forgotPassword(prefill: LastLogin?) -> (ForgotPasswordViewController, ForgotPasswordInteractor) {
        let presenter = ForgotPasswordPresenter(formatting: formatting)
        let interactor = ForgotPasswordInteractor(
            presenter: presenter, auth: dependencies.auth, codes: codes, prefill: prefill, tasks: tasks
        )
        return assemble(ForgotPasswordViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func home(session: Session) -> (HomeViewController, HomeInteractor) {
        let presenter = HomePresenter(formatting: formatting, keys: keys)
        let interactor = HomeInteractor(
            presenter: presenter, account: dependencies.account, cards: dependencies.cards, auth: dependencies.auth,
            sessions: dependencies.sessions, cache: dependencies.cache, preferences: dependencies.preferences,
            session: session, clock: clock, timeZone: formatting.timeZone, tasks: tasks
        )
        return assemble(HomeViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func transactionDetail(_ transaction: Transaction) -> (TransactionDetailViewController, TransactionDetailInteractor) {
        let presenter = TransactionDetailPresenter(formatting: formatting)
        let interactor = TransactionDetailInteractor(presenter: presenter, transaction: transaction)
        return assemble(TransactionDetailViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func notifications() -> (NotificationsViewController, NotificationsInteractor) {
        let presenter = NotificationsPresenter(formatting: formatting)
        let interactor = NotificationsInteractor(presenter: presenter, worker: dependencies.notifications, tasks: tasks)
        return assemble(NotificationsViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func addCard(holderName: String) -> (AddCardViewController, AddCardInteractor) {
        let presenter = AddCardPresenter(formatting: formatting)
        let interactor = AddCardInteractor(
            presenter: presenter, worker: dependencies.cards, holderName: holderName, clock: clock, tasks: tasks
        )
        return assemble(AddCardViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func lock(userName: String, reason: LockReason) -> (LockViewController, LockInteractor) {
        let presenter = LockPresenter(formatting: formatting)
        let interactor = LockInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions, cache: dependencies.cache,
            userName: userName, reason: reason, tasks: tasks
        )
        return assemble(LockViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func activateCard(_ card: Card, phoneE164: String) -> (ActivateCardViewController, ActivateCardInteractor) {
        let presenter = ActivateCardPresenter(formatting: formatting)
        let interactor = ActivateCardInteractor(
            presenter: presenter, worker: dependencies.cards, codes: codes, card: card, phoneE164: phoneE164, tasks: tasks
        )
        return assemble(ActivateCardViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}
