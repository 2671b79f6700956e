import SkiffCore
import TerminalUI

/// Home, with Transaction detail and Notifications pushed over it, and the Add card, Activate card and Cards
/// flows as children. What those flows change reaches Home through its business logic, without a reload.
@MainActor
final class HomeCoordinator: FinishingCoordinator {
    enum Event {
        /// Logged out.
        case finished
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    /// The person asked to log out; `finished` follows once the server has been told. (Not an `Event`: the flow
    /// has not ended, and an event lets the coordinator go.)
    var onLoggingOut: () -> Void = {}
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let session: Session
    private weak var home: (any HomeBusinessLogic)?
    /// Send money while it is open: the live stream's balance reaches it too.
    private weak var sendMoney: (any SendMoneyBusinessLogic)?

    init(navigation: NavigationController, factory: SceneFactory, session: Session) {
        self.navigation = navigation
        self.factory = factory
        self.session = session
    }

    func start() {
        let (controller, interactor) = factory.home(session: session)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .addCard: self.startAddCard()
            case .activateCard(let card): self.startActivateCard(card)
            case .notifications: self.showNotifications()
            case .cards(let cards): self.showCards(cards)
            case .transaction(let transaction): self.showTransaction(transaction)
            case .sendMoney(let balance):
                // Home reloads after money went: the new balance, the transfer at the top of the list.
                self.sendMoney = self.startSendMoney(
                    navigation: self.navigation, factory: self.factory, balance: balance, userID: self.session.user.id
                ) { [weak self] outcome in
                    if case .sent? = outcome { self?.refresh() }
                }
            case .topUp(let cards, let balance):
                // As after Send money: Home reloads for the new balance and the top-up at the top of the list.
                self.startTopUp(
                    navigation: self.navigation, factory: self.factory, cards: cards, balance: balance, phoneE164: self.phoneE164
                ) { [weak self] outcome in
                    if case .added? = outcome { self?.refresh() }
                }
            case .loggingOut: self.onLoggingOut()
            case .loggedOut: self.onFinish(.finished)
            }
        }
        home = interactor
        navigation.setViewControllers([controller])
    }

    /// What the live stream says: Home shows it as it comes.
    func live(_ update: LiveUpdate) {
        home?.live(request: .init(update: update))
        if case .event(.balanceChanged(let balance)) = update {
            sendMoney?.updateBalance(request: .init(balance: balance))
        }
    }

    /// Fetches Home's account, cards and transactions again.
    func refresh() {
        home?.refresh(request: .init())
    }

    private func showTransaction(_ transaction: Transaction) {
        let (controller, interactor) = factory.transactionDetail(transaction)
        interactor.route = { [weak self] route in
            switch route {
            case .back: _ = self?.navigation.pop()
            }
        }
        navigation.push(controller)
    }

    private func showNotifications() {
        let (controller, interactor) = factory.notifications()
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .back(let unread):
                _ = self.navigation.pop()
                if let unread { self.home?.unreadChanged(request: .init(count: unread)) }
            }
        }
        navigation.push(controller)
    }

    /// Cards over Home; each change reaches Home as it lands, even after Cards is closed: cards added and
    /// activated from Cards as well.
    private func showCards(_ cards: [Card]) {
        let holder = CardHolder(name: session.user.fullName, phoneE164: phoneE164)
        startCards(cards, navigation: navigation, factory: factory, holder: holder, onChange: { [weak home = self.home] change in
            switch change {
            case .changed(let card): home?.cardUpdated(request: .init(card: card))
            case .removed(let card): home?.cardRemoved(request: .init(card: card))
            case .added(let card): home?.cardAdded(request: .init(card: card))
            }
        })
    }

    private func startAddCard() {
        startAddCard(navigation: navigation, factory: factory, holderName: session.user.fullName) { [weak self] card in
            self?.home?.cardAdded(request: .init(card: card))
        }
    }

    /// The signed-in user's number, where codes are sent (the development outbox is read by it).
    private var phoneE164: String {
        let user = session.user
        return (try? PhoneNumber.parse(countryCode: user.countryCode, number: user.phoneNumber).e164)
            ?? user.countryCode + user.phoneNumber
    }

    private func startActivateCard(_ card: Card) {
        startActivateCard(card, navigation: navigation, factory: factory, phoneE164: phoneE164) { [weak self] card in
            self?.home?.cardUpdated(request: .init(card: card))
        }
    }
}
