import SkiffCore
import TerminalUI

@MainActor
protocol CardsPanelBusinessLogic: AnyObject {
    func load(request: CardsPanel.Load.Request)
    func refresh(request: CardsPanel.Refresh.Request)
    func live(request: CardsPanel.Live.Request)
    func stop(request: CardsPanel.Stop.Request)
}

/// What the panel tells Home, which hosts it.
enum CardsPanelRoute: Sendable {
    /// The cards changed: what Home tops up from, activates and keeps.
    case cards([Card])
    /// A load started, or ended (with its error, if it failed): Home's spinner and banner follow it.
    case loading(isRunning: Bool, error: NetworkError?)
}

/// Fetches the cards, and fetches them again when the live stream says one changed.
@MainActor
final class CardsPanelInteractor: CardsPanelBusinessLogic {
    private let presenter: any CardsPanelPresentationLogic
    private let worker: any CardWorking
    var route: (CardsPanelRoute) -> Void = { _ in }
    private(set) var state = CardsPanel.State()
    let fetch: RequestInFlight
    /// Set when the last load failed: back online, it is tried again.
    private var failed = false

    init(presenter: any CardsPanelPresentationLogic, worker: any CardWorking, tasks: TaskTracker) {
        self.presenter = presenter
        self.worker = worker
        fetch = RequestInFlight(tasks: tasks)
    }

    private func present() {
        presenter.presentUpdate(response: .init(state: state))
    }

    func load(request: CardsPanel.Load.Request) {
        if let cached = request.cached {
            state.cards = cached
            state.isKnown = true
            present()
        }
        refresh(request: .init())
    }

    func refresh(request: CardsPanel.Refresh.Request) {
        fetchCards(told: true)
    }

    /// `told`: whether Home's spinner and banner follow this load (not when the stream asked for it: a card changed
    /// quietly reappears, and a failure leaves the cards as they were).
    private func fetchCards(told: Bool) {
        fetch.abandon()
        if told { route(.loading(isRunning: true, error: nil)) }
        fetch.call({ [worker] () async throws(NetworkError) in try await worker.cards() }, then: { [weak self] result in
            self?.finish(result, told: told)
        })
    }

    private func finish(_ result: Result<[Card], NetworkError>, told: Bool) {
        switch result {
        case .success(let cards):
            failed = false
            if cards != state.cards || !state.isKnown {
                state.cards = cards
                state.isKnown = true
                present()
                route(.cards(cards))
            }
            if told { route(.loading(isRunning: false, error: nil)) }
        case .failure(.cancelled):
            if told { route(.loading(isRunning: false, error: nil)) }
        case .failure(let error):
            guard told else { return }
            failed = true
            route(.loading(isRunning: false, error: error))
        }
    }

    func live(request: CardsPanel.Live.Request) {
        switch request.update {
        case .event(.cardChanged):
            fetchCards(told: false)
        case .online where failed && !fetch.isRunning:
            refresh(request: .init())
        default:
            return
        }
    }

    func stop(request: CardsPanel.Stop.Request) {
        if fetch.isRunning { route(.loading(isRunning: false, error: nil)) }
        fetch.abandon()
    }
}
