import SkiffCore
import TerminalUI

/// Home, with Transaction detail and Notifications pushed over it, and the Add card, Activate card and Cards
/// flows as children. What those flows change reaches Home the one way every outside change does, by the live
/// stream; a flow Home started tells Home only what it did (`flowFinished`), for its words.
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
                // The new balance and the transfer at the top of Home's list come by the live stream.
                self.startChild(SceneFlowCoordinator.sendMoney(
                    navigation: self.navigation, factory: self.factory, balance: balance, userID: self.session.user.id
                ) { [weak self] in self?.sendMoney = $0 })
            case .topUp(let cards, let balance):
                // As after Send money: the live stream brings the new balance and the top-up.
                self.startChild(SceneFlowCoordinator.topUp(
                    navigation: self.navigation, factory: self.factory, cards: cards, balance: balance
                ))
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

    private func showTransaction(_ transaction: Transaction) {
        startChild(SceneFlowCoordinator<Never>(navigation: navigation) { [factory] finish in
            let (controller, interactor) = factory.transactionDetail(transaction)
            interactor.route = { route in
                switch route {
                case .back: finish(nil)
                }
            }
            return controller
        })
    }

    private func showNotifications() {
        startChild(SceneFlowCoordinator<Never>(navigation: navigation) { [factory] finish in
            let (controller, interactor) = factory.notifications()
            interactor.route = { route in
                switch route {
                case .back: finish(nil)
                }
            }
            return controller
        })
    }

    /// Cards over Home. What changes there (a card added, activated, frozen, removed) reaches Home by the live
    /// stream, and Cards tells it itself.
    private func showCards(_ cards: [Card]) {
        let holder = CardHolder(name: session.user.fullName, phoneE164: phoneE164)
        startChild(CardsCoordinator(cards, navigation: navigation, factory: factory, holder: holder))
    }

    private func startAddCard() {
        let flow = SceneFlowCoordinator.addCard(navigation: navigation, factory: factory, holderName: session.user.fullName)
        startChild(flow) { [weak self] event in
            if case .finished(let card?) = event { self?.home?.flowFinished(request: .init(.cardAdded(card))) }
        }
    }

    /// The signed-in user's number, where codes are sent (the development outbox is read by it).
    private var phoneE164: String {
        let user = session.user
        return (try? PhoneNumber.parse(countryCode: user.countryCode, number: user.phoneNumber).e164)
            ?? user.countryCode + user.phoneNumber
    }

    private func startActivateCard(_ card: Card) {
        let flow = SceneFlowCoordinator.activateCard(card, navigation: navigation, factory: factory, phoneE164: phoneE164)
        startChild(flow) { [weak self] event in
            if case .finished(let card?) = event { self?.home?.flowFinished(request: .init(.cardActivated(card))) }
        }
    }
}
