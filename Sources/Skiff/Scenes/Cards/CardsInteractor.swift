import SkiffCore
import TerminalUI

@MainActor
protocol CardsBusinessLogic: AnyObject {
    func load(request: Cards.Load.Request)
    func showDetail(request: Cards.ShowDetail.Request)
    func freeze(request: Cards.Freeze.Request)
    func remove(request: Cards.Remove.Request)
    func add(request: Cards.Add.Request)
    func activate(request: Cards.Activate.Request)
    func changedElsewhere(request: Cards.ChangedElsewhere.Request)
    func confirmRemove(request: Cards.ConfirmRemove.Request)
    func back(request: Cards.Back.Request)
}

/// Where Cards sends the person next, and what it changed that other screens show.
enum CardsRoute: Sendable {
    case openCard(Card)
    /// The Add card flow, over Cards.
    case addCard
    /// The Activate card flow for this card, over Cards.
    case activateCard(Card)
    case back
}

/// Shows the cards it was given at once and refreshes them from the server; freezes, unfreezes and removes
/// them, reporting each change as it lands; sends the person to add a card or activate the issued one, and shows
/// what those flows (and Card detail) changed.
@MainActor
final class CardsInteractor: CardsBusinessLogic {
    private let presenter: any CardsPresentationLogic
    private let worker: any CardWorking
    private let tasks: TaskTracker
    var route: (CardsRoute) -> Void = { _ in }

    private(set) var state: Cards.State
    /// The list load, cancelled by Esc or when the screen goes.
    let inFlight: RequestInFlight

    init(presenter: any CardsPresentationLogic, worker: any CardWorking, cards: [Card], tasks: TaskTracker) {
        self.presenter = presenter
        self.worker = worker
        self.tasks = tasks
        state = Cards.State(cards: cards)
        inFlight = RequestInFlight(tasks: tasks)
    }

    private func present() {
        presenter.presentUpdate(response: .init(state: state))
        state.notice = nil
    }

    func load(request: Cards.Load.Request) {
        state.isLoading = true
        state.error = nil
        present()
        inFlight.call({ [worker] () async throws(NetworkError) in try await worker.cards() }, then: { [weak self] result in
            guard let self else { return }
            state.isLoading = false
            switch result {
            case .success(let cards): state.cards = cards
            case .failure(.cancelled): break
            case .failure(let error): state.error = error
            }
            present()
        })
    }

    func showDetail(request: Cards.ShowDetail.Request) {
        guard state.cards.indices.contains(request.index) else { return }
        route(.openCard(state.cards[request.index]))
    }

    func freeze(request: Cards.Freeze.Request) {
        guard state.changing == nil, state.cards.indices.contains(request.index) else { return }
        let card = state.cards[request.index]
        change(card.frozen ? .unfreeze(card) : .freeze(card))
    }

    func remove(request: Cards.Remove.Request) {
        guard state.changing == nil, state.cards.indices.contains(request.index) else { return }
        let card = state.cards[request.index]
        guard card.kind == .external else { return }
        presenter.presentRemove(response: .init(card: card))
    }

    func add(request: Cards.Add.Request) {
        route(.addCard)
    }

    func activate(request: Cards.Activate.Request) {
        guard state.changing == nil, state.cards.indices.contains(request.index) else { return }
        let card = state.cards[request.index]
        guard card.canBeActivated else { return }
        route(.activateCard(card))
    }

    func changedElsewhere(request: Cards.ChangedElsewhere.Request) {
        switch request.change {
        case .added(let card):
            if let index = state.cards.firstIndex(where: { $0.id == card.id }) { state.cards[index] = card } else { state.cards.append(card) }
        case .changed(let card), .activated(let card):
            if let index = state.cards.firstIndex(where: { $0.id == card.id }) { state.cards[index] = card }
        case .removed(let card):
            state.cards.removeAll { $0.id == card.id }
        }
        state.notice = request.change
        state.error = nil
        present()
    }

    func confirmRemove(request: Cards.ConfirmRemove.Request) {
        guard state.changing == nil, let card = state.cards.first(where: { $0.id == request.cardID }), card.kind == .external
        else { return }
        change(.remove(card))
    }

    /// Sends the change. It runs on the tracked tasks, not `inFlight`: once asked for, it reaches the server even if
    /// the screen is closed meanwhile (Home hears of it by the live stream's `card-changed`).
    private func change(_ change: Cards.Change) {
        state.changing = change
        state.error = nil
        present()
        tasks.run { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) -> Card? in try await worker.apply(change) }
            self?.finish(change, result)
        }
    }

    private func finish(_ change: Cards.Change, _ result: Result<Card?, NetworkError>) {
        state.changing = nil
        switch (change, result) {
        case (.remove(let card), .success):
            state.cards.removeAll { $0.id == card.id }
            state.notice = .removed(card)
        case (_, .success(let card?)):
            if let index = state.cards.firstIndex(where: { $0.id == card.id }) { state.cards[index] = card }
            state.notice = .changed(card)
        case (_, .failure(let error)):
            state.error = error
        case (_, .success(nil)):
            break
        }
        present()
    }

    func back(request: Cards.Back.Request) {
        inFlight.cancel(orElse: { route(.back) })
    }
}

extension CardWorking {
    /// Makes `change` on the server (Cards and Card detail alike): the card as it is now, nil once removed.
    func apply(_ change: Cards.Change) async throws(NetworkError) -> Card? {
        switch change {
        case .freeze(let card): return try await setFrozen(true, cardID: card.id)
        case .unfreeze(let card): return try await setFrozen(false, cardID: card.id)
        case .remove(let card):
            try await remove(cardID: card.id)
            return nil
        }
    }
}
