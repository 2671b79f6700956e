import SkiffCore
import TerminalUI

@MainActor
protocol CardDetailBusinessLogic: AnyObject {
    func load(request: CardDetail.Load.Request)
    func freeze(request: CardDetail.Freeze.Request)
    func remove(request: CardDetail.Remove.Request)
    func confirmRemove(request: CardDetail.ConfirmRemove.Request)
    func back(request: CardDetail.Back.Request)
}

/// Where Card detail sends the person next, and what it changed that other screens show.
enum CardDetailRoute: Sendable {
    /// The card was frozen or unfrozen.
    case changed(Card)
    /// The card was removed: nothing is left to show.
    case removed(Card)
    case back
}

/// Shows the card Cards passed in; freezes or unfreezes it, and removes it if it is an added card, reporting each
/// change as it lands (also after the screen is gone, as Cards does, decision 0083).
@MainActor
final class CardDetailInteractor: CardDetailBusinessLogic {
    private let presenter: any CardDetailPresentationLogic
    private let worker: any CardWorking
    private let tasks: TaskTracker
    var route: (CardDetailRoute) -> Void = { _ in }

    private(set) var state: CardDetail.State

    init(presenter: any CardDetailPresentationLogic, worker: any CardWorking, card: Card, tasks: TaskTracker) {
        self.presenter = presenter
        self.worker = worker
        self.tasks = tasks
        state = CardDetail.State(card: card)
    }

    private func present() {
        presenter.presentUpdate(response: .init(state: state))
        state.notice = nil
    }

    func load(request: CardDetail.Load.Request) {
        presenter.presentLoad(response: .init(card: state.card))
        present()
    }

    func freeze(request: CardDetail.Freeze.Request) {
        guard state.changing == nil else { return }
        let card = state.card
        change(card.frozen ? .unfreeze(card) : .freeze(card))
    }

    func remove(request: CardDetail.Remove.Request) {
        guard state.changing == nil, state.card.kind == .external else { return }
        presenter.presentRemove(response: .init(card: state.card))
    }

    func confirmRemove(request: CardDetail.ConfirmRemove.Request) {
        guard state.changing == nil, request.cardID == state.card.id, state.card.kind == .external else { return }
        change(.remove(state.card))
    }

    /// Sends the change on the tracked tasks: once asked for, it reaches the server and is reported through
    /// `route` even if the screen is closed meanwhile.
    private func change(_ change: Cards.Change) {
        state.changing = change
        state.error = nil
        present()
        let route = route
        tasks.run { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) -> Card? in try await worker.apply(change) }
            self?.finish(change, result)
            switch (change, result) {
            case (.remove(let card), .success): route(.removed(card))
            case (_, .success(let card?)): route(.changed(card))
            default: break
            }
        }
    }

    private func finish(_ change: Cards.Change, _ result: Result<Card?, NetworkError>) {
        state.changing = nil
        switch (change, result) {
        case (.remove(let card), .success):
            state.notice = .removed(card)
        case (_, .success(let card?)):
            state.card = card
            state.notice = .changed(card)
            presenter.presentLoad(response: .init(card: card))
        case (_, .failure(let error)):
            state.error = error
        case (_, .success(nil)):
            break
        }
        present()
    }

    func back(request: CardDetail.Back.Request) {
        route(.back)
    }
}
