import SkiffCore
import TerminalUI

@MainActor
protocol SpendingBusinessLogic: AnyObject {
    func load(request: Spending.Load.Request)
    func toggle(request: Spending.Toggle.Request)
    func selectCategory(request: Spending.SelectCategory.Request)
    func live(request: Spending.Live.Request)
    func stop(request: Spending.Stop.Request)
}

/// Where the Spending panel sends the person: one category of one month, for the transactions to list.
enum SpendingRoute: Sendable, Equatable {
    /// `name` in `month` (`2026-11`, in UTC as the server counts spending).
    case category(name: String, month: String)
}

/// Loads this month's spending while the panel is wanted; what is on screen stays until the answer replaces it.
@MainActor
final class SpendingInteractor: SpendingBusinessLogic {
    private let presenter: any SpendingPresentationLogic
    private let account: any AccountWorking
    private let preferences: any PreferencesStoring
    var route: (SpendingRoute) -> Void = { _ in }
    private(set) var state: Spending.State
    let fetch: RequestInFlight
    /// Set once the person logs out.
    private var stopped = false

    init(presenter: any SpendingPresentationLogic, account: any AccountWorking, preferences: any PreferencesStoring, tasks: TaskTracker) {
        self.presenter = presenter
        self.account = account
        self.preferences = preferences
        state = Spending.State(isShown: !preferences.hidesSpending())
        fetch = RequestInFlight(tasks: tasks)
    }

    private func present() {
        state.isLoading = fetch.isRunning
        presenter.presentUpdate(response: .init(state: state))
    }

    func load(request: Spending.Load.Request) {
        guard state.isShown, !stopped else {
            present()
            return
        }
        fetch.abandon()
        state.error = nil
        fetch.call({ [account] () async throws(NetworkError) in try await account.spending() }, then: { [weak self] result in
            self?.finish(result)
        })
        present()
    }

    private func finish(_ result: Result<MonthlySpending, NetworkError>) {
        switch result {
        case .success(let spending): state.spending = spending
        case .failure(.cancelled): break
        case .failure(let error): state.error = error
        }
        present()
    }

    func toggle(request: Spending.Toggle.Request) {
        state.isShown.toggle()
        preferences.saveHidesSpending(!state.isShown)
        if state.isShown {
            load(request: .init())
        } else {
            fetch.abandon()
            present()
        }
    }

    func selectCategory(request: Spending.SelectCategory.Request) {
        guard state.isShown, let spending = state.spending, spending.categories.indices.contains(request.index) else { return }
        route(.category(name: spending.categories[request.index].name, month: spending.month))
    }

    /// Back online: a load that failed meanwhile is asked for again, so its error goes by itself.
    func live(request: Spending.Live.Request) {
        guard case .online = request.update, state.isShown, state.error != nil, !fetch.isRunning else { return }
        load(request: .init())
    }

    func stop(request: Spending.Stop.Request) {
        stopped = true
        fetch.abandon()
    }
}
