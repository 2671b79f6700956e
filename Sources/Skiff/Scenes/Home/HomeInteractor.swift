import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol HomeBusinessLogic: AnyObject {
    func load(request: Home.Load.Request)
    func refresh(request: Home.Refresh.Request)
    func navigate(request: Home.Navigate.Request)
    func logout(request: Home.Logout.Request)
    func back(request: Home.Back.Request)
    func dismissNotice(request: Home.DismissNotice.Request)
    func flowFinished(request: Home.FlowFinished.Request)
    func live(request: Home.Live.Request)
    func partTold(request: Home.PartTold.Request)
}

/// Where Home sends the person next.
enum HomeRoute: Sendable {
    case addCard
    case activateCard(Card)
    case notifications
    /// Cards, shown at once with the cards Home has.
    case cards([Card])
    case transaction(Transaction)
    /// Send money, from the balance Home shows.
    case sendMoney(balance: Money)
    /// Top up from one of the cards Home has, into the wallet holding the balance Home shows.
    case topUp(cards: [Card], balance: Money)
    /// The person asked to log out and the server is being told: whatever ends the session meanwhile (the live
    /// stream saying it was revoked) is this logout, not an expiry.
    case loggingOut
    case loggedOut
}

/// Starts Home's parts from the cache and then the server, hands them what the live stream says, keeps what they
/// tell for the next start, and sends the person on with the balance and cards they show.
@MainActor
final class HomeInteractor: HomeBusinessLogic {
    private let presenter: any HomePresentationLogic
    private let parts: Home.Parts
    private let cache: any CacheStoring
    /// Logs out.
    private let sessionWorker: SessionWorker
    private let session: Session
    private let clock: SceneClock
    var route: (HomeRoute) -> Void = { _ in }

    private(set) var state = Home.State()
    let logoutRequest: RequestInFlight
    /// The parts whose load has ended with the server's answer: once all have, what shows is no longer the cache's.
    private var answered: Set<Home.Part> = []
    /// Set while Home stops its parts (Esc, log out): a load that ends then was stopped, not answered.
    private var isStopping = false

    init(
        presenter: any HomePresentationLogic, parts: Home.Parts, auth: any AuthWorking, sessions: any SessionStoring,
        cache: any CacheStoring, session: Session, clock: SceneClock = .live, tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.parts = parts
        self.cache = cache
        sessionWorker = SessionWorker(auth: auth, sessions: sessions, cache: cache)
        self.session = session
        self.clock = clock
        logoutRequest = RequestInFlight(tasks: tasks)
    }

    private func present() {
        presenter.presentUpdate(response: .init(state: state))
    }

    /// What was kept from last time shows at once; each part then asks the server for its own.
    func load(request: Home.Load.Request) {
        let cached = cache.loadHome(userID: session.user.id)
        if let cached {
            let snapshot = cached.snapshot
            state.summary = snapshot.summary
            state.cards = snapshot.cards
            state.firstPage = .init(items: snapshot.transactions, nextCursor: snapshot.nextCursor)
            state.cachedAt = cached.savedAt
        }
        parts.balance.load(request: .init(cached: cached?.snapshot.summary))
        parts.cards.load(request: .init(cached: cached?.snapshot.cards))
        parts.transactions.load(request: .init(cached: state.firstPage))
        parts.spending.load(request: .init())
        present()
    }

    func refresh(request: Home.Refresh.Request) {
        guard !state.isLoggingOut else { return }
        parts.balance.refresh(request: .init())
        parts.cards.refresh(request: .init())
        parts.transactions.refresh(request: .init())
        parts.spending.load(request: .init())
    }

    func back(request: Home.Back.Request) {
        guard !state.isLoggingOut else { return }
        isStopping = true
        defer { isStopping = false }
        parts.balance.stop(request: .init())
        parts.cards.stop(request: .init())
        parts.transactions.back(request: .init())
    }

    func navigate(request: Home.Navigate.Request) {
        switch request.destination {
        case .addCard:
            route(.addCard)
        case .notifications:
            route(.notifications)
        case .cards:
            route(.cards(state.cards))
        case .sendMoney:
            // Until Home knows the balance there is nothing to send from.
            if let balance = state.summary?.balance { route(.sendMoney(balance: balance)) }
        case .topUp:
            // The cards come with the balance: until Home has them, there is nothing to choose from.
            if let balance = state.summary?.balance { route(.topUp(cards: state.cards, balance: balance)) }
        case .activateCard:
            if let card = state.cards.first(where: { $0.kind == .issued && $0.status == .inactive }) {
                guard !card.frozen else { return tell(.unfreezeCardFirst) }
                route(.activateCard(card))
            } else {
                tell(state.cards.contains { $0.kind == .issued } ? .cardAlreadyActive : .noCardToActivate)
            }
        }
    }

    func logout(request: Home.Logout.Request) {
        guard !logoutRequest.isRunning else { return }
        isStopping = true
        parts.balance.stop(request: .init())
        parts.cards.stop(request: .init())
        parts.transactions.stop(request: .init())
        parts.spending.stop(request: .init())
        isStopping = false
        state.isLoggingOut = true
        present()
        route(.loggingOut)
        logoutRequest.start({ [sessionWorker] in await sessionWorker.end() }, then: { [weak self] _ in
            self?.route(.loggedOut)
        })
    }

    // MARK: What happened elsewhere

    private func tell(_ notice: Home.State.Notice) {
        state.notice = notice
        present()
    }

    /// A key was pressed: the notice on screen has been seen, and goes.
    func dismissNotice(request: Home.DismissNotice.Request) {
        guard state.notice != nil else { return }
        state.notice = nil
        present()
    }

    /// Tells what the flow did, and hands the Cards panel the `card-changed` the stream is bringing, the same way
    /// in: the card shows before a key typed at once could miss it (the stream's own event fetches once more).
    func flowFinished(request: Home.FlowFinished.Request) {
        switch request.outcome {
        case .cardAdded(let card): tell(.cardAdded(card))
        case .cardActivated(let card): tell(.cardActivated(card))
        }
        parts.cards.live(request: .init(update: .event(.cardChanged)))
    }

    /// Every part hears the stream and takes what is its own; money in is also told once (a notice until the next
    /// key). After a loss or an unlock, the stream's catch-up brings whatever was missed, and each part fetches
    /// again only what failed.
    func live(request: Home.Live.Request) {
        let update = request.update
        parts.balance.live(request: .init(update: update))
        parts.cards.live(request: .init(update: update))
        parts.transactions.live(request: .init(update: update))
        parts.spending.live(request: .init(update: update))
        if case .event(.moneyReceived(let transaction, let from, let isTopUp)) = update {
            tell(.moneyReceived(transaction.amount, from: from, isTopUp: isTopUp))
        }
    }

    // MARK: What the parts tell

    func partTold(request: Home.PartTold.Request) {
        switch request.report {
        case .balance(.summary(let summary)):
            state.summary = summary
            save()
        case .balance(.loading(let running, let error)):
            loaded(.balance, isRunning: running, error: error)
        case .cards(.cards(let cards)):
            state.cards = cards
            save()
            present()
        case .cards(.loading(let running, let error)):
            loaded(.cards, isRunning: running, error: error)
        case .transactions(.firstPage(let page)):
            state.firstPage = page
            save()
        case .transactions(.loading(let running, let error)):
            loaded(.transactions, isRunning: running, error: error)
        case .transactions(.transaction(let transaction)):
            route(.transaction(transaction))
        case .spending(.category(let name, let month)):
            parts.transactions.showCategory(request: .init(category: .init(name: name, month: month)))
        }
    }

    /// A part's load started or ended: once every part has answered with no error, what shows is no longer the
    /// cache's, and is kept. A load Home stopped did not answer.
    private func loaded(_ part: Home.Part, isRunning: Bool, error: NetworkError?) {
        if isRunning {
            state.loading.insert(part)
            state.errors[part] = nil
        } else {
            state.loading.remove(part)
            state.errors[part] = error
            if error == nil, !isStopping { answered.insert(part) }
        }
        if state.loading.isEmpty, state.errors.isEmpty, answered.count == Home.Part.allCases.count, state.cachedAt != nil {
            state.cachedAt = nil
            save()
        }
        present()
    }

    /// Keeps Home for the next start, once every part has told what it shows from the server.
    private func save() {
        guard state.cachedAt == nil, let summary = state.summary, let page = state.firstPage else { return }
        cache.saveHome(
            HomeSnapshot(summary: summary, cards: state.cards, transactions: page.items, nextCursor: page.nextCursor),
            userID: session.user.id, at: clock.now()
        )
    }
}
