import SkiffCore
import TerminalUI

@MainActor
protocol BalanceBusinessLogic: AnyObject {
    func load(request: Balance.Load.Request)
    func refresh(request: Balance.Refresh.Request)
    func live(request: Balance.Live.Request)
    func stop(request: Balance.Stop.Request)
}

/// What the header tells Home, which hosts it.
enum BalanceRoute: Sendable {
    /// The summary changed (fetched, or the stream moved the balance or the count): what Home sends from and keeps.
    case summary(AccountSummary)
    /// A load started, or ended (with its error, if it failed): Home's spinner and banner follow it.
    case loading(isRunning: Bool, error: NetworkError?)
}

/// Fetches the account summary and keeps it as the live stream moves it.
@MainActor
final class BalanceInteractor: BalanceBusinessLogic {
    private let presenter: any BalancePresentationLogic
    private let account: any AccountWorking
    var route: (BalanceRoute) -> Void = { _ in }
    private(set) var state = Balance.State()
    let fetch: RequestInFlight
    /// Set when the last load failed: back online, it is tried again.
    private var failed = false

    init(presenter: any BalancePresentationLogic, account: any AccountWorking, tasks: TaskTracker) {
        self.presenter = presenter
        self.account = account
        fetch = RequestInFlight(tasks: tasks)
    }

    private func present() {
        presenter.presentUpdate(response: .init(state: state))
    }

    func load(request: Balance.Load.Request) {
        if let cached = request.cached {
            state.summary = cached
            present()
        }
        refresh(request: .init())
    }

    func refresh(request: Balance.Refresh.Request) {
        fetch.abandon()
        route(.loading(isRunning: true, error: nil))
        fetch.call({ [account] () async throws(NetworkError) in try await account.summary() }, then: { [weak self] result in
            self?.finish(result)
        })
    }

    private func finish(_ result: Result<AccountSummary, NetworkError>) {
        switch result {
        case .success(let summary):
            failed = false
            if summary != state.summary { show(summary) }
            route(.loading(isRunning: false, error: nil))
        case .failure(.cancelled):
            route(.loading(isRunning: false, error: nil))
        case .failure(let error):
            failed = true
            route(.loading(isRunning: false, error: error))
        }
    }

    /// Changes the summary as the stream says, once it is known (the fetch brings the rest).
    private func changed(_ change: (inout AccountSummary) -> Void) {
        guard var summary = state.summary else { return }
        change(&summary)
        if summary != state.summary { show(summary) }
    }

    private func show(_ summary: AccountSummary) {
        state.summary = summary
        present()
        route(.summary(summary))
    }

    func live(request: Balance.Live.Request) {
        switch request.update {
        case .online:
            let wasOffline = state.isOffline
            state.isOffline = false
            if wasOffline { present() }
            if failed, !fetch.isRunning { refresh(request: .init()) }
        case .offline:
            guard !state.isOffline else { return }
            state.isOffline = true
            present()
        case .event(.balanceChanged(let balance)):
            changed { $0.balance = balance }
        case .event(.unreadChanged(let count)):
            changed { $0.unreadNotifications = count }
        case .event:
            return
        }
    }

    func stop(request: Balance.Stop.Request) {
        if fetch.isRunning { route(.loading(isRunning: false, error: nil)) }
        fetch.abandon()
    }
}
