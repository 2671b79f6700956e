import SkiffCore
import TerminalUI

/// Home, with Transaction detail and Notifications pushed over it, and the Add card and Activate card flows
/// as children. What those flows change reaches Home through here, without a reload.
@MainActor
public final class HomeCoordinator: Coordinator {
    public enum Event {
        /// Logged out.
        case finished
    }

    public var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let session: Session
    private weak var home: HomeInteractor?

    init(navigation: NavigationController, factory: SceneFactory, session: Session) {
        self.navigation = navigation
        self.factory = factory
        self.session = session
    }

    public func start() {
        let (controller, interactor) = factory.home(session: session)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .addCard: self.startAddCard()
            case .activateCard(let card): self.startActivateCard(card)
            case .notifications: self.showNotifications()
            case .transaction(let transaction): self.showTransaction(transaction)
            case .loggedOut: self.onFinish(.finished)
            }
        }
        home = interactor
        navigation.setViewControllers([controller])
    }

    private func showTransaction(_ transaction: Transaction) {
        let (controller, interactor) = factory.transactionDetail(transaction)
        interactor.route = { [weak self] route in
            switch route {
            case .close: _ = self?.navigation.pop()
            }
        }
        navigation.push(controller)
    }

    private func showNotifications() {
        let (controller, interactor) = factory.notifications()
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .close(let unread):
                _ = self.navigation.pop()
                if let unread { self.home?.unreadChanged(unread) }
            }
        }
        navigation.push(controller)
    }

    private func startAddCard() {
        let child = AddCardCoordinator(navigation: navigation, factory: factory, holderName: session.user.fullName)
        child.onFinish = { [weak self, weak child] event in
            guard let self, let child else { return }
            self.removeChild(child)
            if case .finished(let card?) = event { self.home?.cardAdded(card) }
        }
        addChild(child)
        child.start()
    }

    private func startActivateCard(_ card: Card) {
        let phone = (try? PhoneNumber.parse(countryCode: session.user.countryCode, number: session.user.phoneNumber).e164)
            ?? session.user.countryCode + session.user.phoneNumber
        let child = ActivateCardCoordinator(navigation: navigation, factory: factory, card: card, phoneE164: phone)
        child.onFinish = { [weak self, weak child] event in
            guard let self, let child else { return }
            self.removeChild(child)
            if case .finished(let card?) = event { self.home?.cardUpdated(card) }
        }
        addChild(child)
        child.start()
    }
}

/// The Add card flow: its scene pushed over Home, popped when the card is added or the person goes back.
@MainActor
public final class AddCardCoordinator: Coordinator {
    public enum Event {
        /// The flow ended; with the new card, or nil when cancelled.
        case finished(Card?)
    }

    public var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let holderName: String

    init(navigation: NavigationController, factory: SceneFactory, holderName: String) {
        self.navigation = navigation
        self.factory = factory
        self.holderName = holderName
    }

    public func start() {
        let (controller, interactor) = factory.addCard(holderName: holderName)
        interactor.route = { [weak self] route in
            guard let self else { return }
            _ = self.navigation.pop()
            switch route {
            case .added(let card): self.onFinish(.finished(card))
            case .cancelled: self.onFinish(.finished(nil))
            }
        }
        navigation.push(controller)
    }
}

/// The Activate card flow: last four digits, a code, then back to Home with the card active.
@MainActor
public final class ActivateCardCoordinator: Coordinator {
    public enum Event {
        /// The flow ended; with the activated card, or nil when cancelled.
        case finished(Card?)
    }

    public var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let card: Card
    private let phoneE164: String

    init(navigation: NavigationController, factory: SceneFactory, card: Card, phoneE164: String) {
        self.navigation = navigation
        self.factory = factory
        self.card = card
        self.phoneE164 = phoneE164
    }

    public func start() {
        let (controller, interactor) = factory.activateCard(card, phoneE164: phoneE164)
        interactor.route = { [weak self] route in
            guard let self else { return }
            _ = self.navigation.pop()
            switch route {
            case .activated(let card): self.onFinish(.finished(card))
            case .cancelled: self.onFinish(.finished(nil))
            }
        }
        navigation.push(controller)
    }
}
