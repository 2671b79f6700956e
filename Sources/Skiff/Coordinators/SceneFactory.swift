import SkiffCore
import TerminalUI

/// Builds every scene of the app from the app's dependencies, each in one method here: the Presenter, the
/// Interactor holding it, and the controller holding the Interactor, which the Presenter holds weakly. The two
/// assignments are written out in each method, where the compiler checks that the Interactor is the controller's
/// business logic and the controller the Presenter's display logic. The caller sets the Interactor's route.
@MainActor
struct SceneFactory {
    let dependencies: AppDependencies
    /// The app's tracked tasks, where every scene's async work runs.
    let tasks: TaskTracker

    private var formatting: Formatting { dependencies.formatting }
    private var clock: SceneClock { dependencies.clock }
    /// The app's key map, for the scenes' controllers and the Presenters that name keys.
    var keys: WalletKeys { dependencies.keys }
    var codes: DevelopmentCodes { DevelopmentCodes(outbox: dependencies.outbox, clock: clock) }

    // MARK: Signing in

    func launch() -> (LaunchViewController, LaunchInteractor) {
        let presenter = LaunchPresenter()
        let interactor = LaunchInteractor(
            presenter: presenter, sessions: dependencies.sessions, serverDescription: dependencies.serverDescription, clock: clock
        )
        let controller = LaunchViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func login(notice: Login.Notice?) -> (LoginViewController, LoginInteractor) {
        let presenter = LoginPresenter(formatting: formatting)
        let interactor = LoginInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions,
            preferences: dependencies.preferences, demo: dependencies.demo, notice: notice, clock: clock, tasks: tasks
        )
        let controller = LoginViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func register(prefill: LastLogin?) -> (RegisterViewController, RegisterInteractor) {
        let presenter = RegisterPresenter(formatting: formatting)
        let interactor = RegisterInteractor(presenter: presenter, auth: dependencies.auth, prefill: prefill, tasks: tasks)
        let controller = RegisterViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
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
        let controller = VerifyPhoneViewController(keys: self.keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func forgotPassword(prefill: LastLogin?) -> (ForgotPasswordViewController, ForgotPasswordInteractor) {
        let presenter = ForgotPasswordPresenter(formatting: formatting)
        let interactor = ForgotPasswordInteractor(
            presenter: presenter, auth: dependencies.auth, codes: codes, prefill: prefill, tasks: tasks
        )
        let controller = ForgotPasswordViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func lock(userName: String, reason: LockReason) -> (LockViewController, LockInteractor) {
        let presenter = LockPresenter(formatting: formatting)
        let interactor = LockInteractor(
            presenter: presenter, auth: dependencies.auth, sessions: dependencies.sessions, cache: dependencies.cache,
            userName: userName, reason: reason, tasks: tasks
        )
        let controller = LockViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    // MARK: Home

    /// Home and its parts, each a scene: what a part tells goes to Home's Interactor, which hands the parts what
    /// they need.
    func home(session: Session) -> (HomeViewController, HomeInteractor) {
        let (balance, balanceInteractor) = balance()
        let (cards, cardsInteractor) = cardsPanel()
        let (spending, spendingInteractor) = spending()
        let (transactions, transactionsInteractor) = transactions()
        let presenter = HomePresenter(formatting: formatting, keys: keys)
        let interactor = HomeInteractor(
            presenter: presenter,
            parts: Home.Parts(
                balance: balanceInteractor, cards: cardsInteractor, spending: spendingInteractor, transactions: transactionsInteractor
            ),
            auth: dependencies.auth, sessions: dependencies.sessions, cache: dependencies.cache, session: session, clock: clock,
            tasks: tasks
        )
        balanceInteractor.route = { [weak interactor] in interactor?.partTold(request: .init(.balance($0))) }
        cardsInteractor.route = { [weak interactor] in interactor?.partTold(request: .init(.cards($0))) }
        spendingInteractor.route = { [weak interactor] in interactor?.partTold(request: .init(.spending($0))) }
        transactionsInteractor.route = { [weak interactor] in interactor?.partTold(request: .init(.transactions($0))) }
        let controller = HomeViewController(
            balance: balance, cards: cards, spending: spending, transactions: transactions, keys: keys
        )
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func balance() -> (BalanceViewController, BalanceInteractor) {
        let presenter = BalancePresenter(formatting: formatting)
        let interactor = BalanceInteractor(presenter: presenter, account: dependencies.account, tasks: tasks)
        let controller = BalanceViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func cardsPanel() -> (CardsPanelViewController, CardsPanelInteractor) {
        let presenter = CardsPanelPresenter(formatting: formatting)
        let interactor = CardsPanelInteractor(presenter: presenter, worker: dependencies.cards, tasks: tasks)
        let controller = CardsPanelViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func spending() -> (SpendingViewController, SpendingInteractor) {
        let presenter = SpendingPresenter(formatting: formatting)
        let interactor = SpendingInteractor(
            presenter: presenter, account: dependencies.account, preferences: dependencies.preferences, tasks: tasks
        )
        let controller = SpendingViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func transactions() -> (TransactionsViewController, TransactionsInteractor) {
        let presenter = TransactionsPresenter(formatting: formatting, keys: keys)
        let interactor = TransactionsInteractor(
            presenter: presenter, account: dependencies.account, clock: clock, timeZone: formatting.timeZone, tasks: tasks
        )
        let controller = TransactionsViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func transactionDetail(_ transaction: Transaction) -> (TransactionDetailViewController, TransactionDetailInteractor) {
        let presenter = TransactionDetailPresenter(formatting: formatting)
        let interactor = TransactionDetailInteractor(presenter: presenter, transaction: transaction)
        let controller = TransactionDetailViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func notifications() -> (NotificationsViewController, NotificationsInteractor) {
        let presenter = NotificationsPresenter(formatting: formatting)
        let interactor = NotificationsInteractor(presenter: presenter, worker: dependencies.notifications, tasks: tasks)
        let controller = NotificationsViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    // MARK: Cards

    func cards(_ cards: [Card]) -> (CardsViewController, CardsInteractor) {
        let presenter = CardsPresenter(formatting: formatting)
        let interactor = CardsInteractor(presenter: presenter, worker: dependencies.cards, cards: cards, tasks: tasks)
        let controller = CardsViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func cardDetail(_ card: Card) -> (CardDetailViewController, CardDetailInteractor) {
        let presenter = CardDetailPresenter(formatting: formatting, keys: keys)
        let interactor = CardDetailInteractor(presenter: presenter, worker: dependencies.cards, card: card, tasks: tasks)
        let controller = CardDetailViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func addCard(holderName: String) -> (AddCardViewController, AddCardInteractor) {
        let presenter = AddCardPresenter(formatting: formatting)
        let interactor = AddCardInteractor(
            presenter: presenter, worker: dependencies.cards, holderName: holderName, clock: clock, tasks: tasks
        )
        let controller = AddCardViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    func activateCard(_ card: Card, phoneE164: String) -> (ActivateCardViewController, ActivateCardInteractor) {
        let presenter = ActivateCardPresenter(formatting: formatting)
        let interactor = ActivateCardInteractor(
            presenter: presenter, worker: dependencies.cards, codes: codes, card: card, phoneE164: phoneE164, tasks: tasks
        )
        let controller = ActivateCardViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    // MARK: Money

    /// Send money from `balance` (what Home shows), over the app's transfer worker, offering the numbers the user
    /// `userID` last sent money to.
    func sendMoney(balance: Money, userID: String) -> (SendMoneyViewController, SendMoneyInteractor) {
        let presenter = SendMoneyPresenter(formatting: formatting)
        let interactor = SendMoneyInteractor(
            presenter: presenter, transfers: dependencies.transfers, preferences: dependencies.preferences, userID: userID,
            balance: balance, tasks: tasks
        )
        let controller = SendMoneyViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }

    /// Top up from one of `cards` (what Home has) into the wallet holding `balance`, over the app's transfer
    /// worker.
    func topUp(cards: [Card], balance: Money) -> (TopUpViewController, TopUpInteractor) {
        let presenter = TopUpPresenter(formatting: formatting, keys: keys)
        let interactor = TopUpInteractor(
            presenter: presenter, transfers: dependencies.transfers, cards: cards, balance: balance, clock: clock, tasks: tasks
        )
        let controller = TopUpViewController(keys: keys)
        controller.interactor = interactor
        presenter.viewController = controller
        return (controller, interactor)
    }
}
