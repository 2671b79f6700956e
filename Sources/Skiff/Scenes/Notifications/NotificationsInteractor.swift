import SkiffCore
import TerminalUI

@MainActor
protocol NotificationsBusinessLogic: AnyObject {
    func load(request: Notifications.Load.Request)
    func open(request: Notifications.Open.Request)
    func markAllRead(request: Notifications.MarkAllRead.Request)
    func back(request: Notifications.Back.Request)
}

/// Where Notifications sends the person next.
enum NotificationsRoute: Sendable {
    /// Back to Home (the unread count there follows the live stream's `notifications-changed`).
    case back
}

/// Loads the notifications, opens one in full, and marks them read on the server (one as it opens, or all),
/// showing the change at once.
@MainActor
final class NotificationsInteractor: NotificationsBusinessLogic {
    private let presenter: any NotificationsPresentationLogic
    private let worker: any NotificationsWorking
    var route: (NotificationsRoute) -> Void = { _ in }

    private(set) var state = Notifications.State()
    /// The load, cancelled when the screen goes; marking read is quick and must reach the server, so it runs
    /// on the tracked tasks directly.
    let inFlight: RequestInFlight
    private let tasks: TaskTracker

    init(presenter: any NotificationsPresentationLogic, worker: any NotificationsWorking, tasks: TaskTracker) {
        self.presenter = presenter
        self.worker = worker
        self.tasks = tasks
        inFlight = RequestInFlight(tasks: tasks)
    }

    private func present() { presenter.presentUpdate(response: .init(state: state)) }

    func load(request: Notifications.Load.Request) {
        state.isLoading = true
        state.error = nil
        present()
        inFlight.call({ [worker] () async throws(NetworkError) in
            try await worker.notifications()
        }, then: { [weak self] result in
            guard let self else { return }
            state.isLoading = false
            switch result {
            case .success(let items):
                state.items = items
                state.hasLoaded = true
                if let open = state.openID, !items.contains(where: { $0.id == open }) { state.openID = nil }
            case .failure(.cancelled): break
            case .failure(let error): state.error = error
            }
            present()
        })
    }

    func open(request: Notifications.Open.Request) {
        guard state.items.indices.contains(request.index) else { return }
        let item = state.items[request.index]
        state.openID = item.id
        if item.read { present() } else { mark([item.id]) }
    }

    func markAllRead(request: Notifications.MarkAllRead.Request) {
        mark(state.items.filter { !$0.read }.map(\.id))
    }

    /// Shows the notifications read at once, and puts back any the server refused.
    private func mark(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        setRead(ids, true)
        state.error = nil
        present()
        // Holds the worker, not the scene: the requests finish even if the screen is closed meanwhile.
        tasks.run { [weak self, worker] in
            var failed: [String] = []
            var lastError: NetworkError?
            for id in ids {
                let result = await Result.capture { () async throws(NetworkError) in try await worker.markRead(id: id) }
                if case .failure(let error) = result, error != .cancelled {
                    failed.append(id)
                    lastError = error
                }
            }
            guard let self, !failed.isEmpty else { return }
            self.setRead(failed, false)
            self.state.error = lastError
            self.present()
        }
    }

    private func setRead(_ ids: [String], _ read: Bool) {
        for index in state.items.indices where ids.contains(state.items[index].id) {
            state.items[index].read = read
        }
    }

    func back(request: Notifications.Back.Request) {
        if state.openID != nil {
            state.openID = nil
            present()
            return
        }
        route(.back)
    }
}
