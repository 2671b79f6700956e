import SkiffCore

@MainActor
public protocol NotificationsBusinessLogic: AnyObject {
    func load(request: Notifications.Load.Request)
    func markRead(request: Notifications.MarkRead.Request)
    func markAllRead(request: Notifications.MarkAllRead.Request)
    func close(request: Notifications.Close.Request)
}

/// Loads the notifications and marks them read on the server, showing the change at once.
@MainActor
public final class NotificationsInteractor: NotificationsBusinessLogic {
    private let presenter: any NotificationsPresentationLogic
    private let worker: any NotificationsWorking
    public var route: (NotificationsRoute) -> Void = { _ in }

    private(set) var state = Notifications.State()
    private(set) var tasks: [Task<Void, Never>] = []
    private var loadTask: Task<Void, Never>?

    public init(presenter: any NotificationsPresentationLogic, worker: any NotificationsWorking) {
        self.presenter = presenter
        self.worker = worker
    }

    // Only the load is cancelled when the screen goes: marking read is quick and must reach the server.
    isolated deinit { loadTask?.cancel() }

    private func present() { presenter.presentUpdate(response: .init(state: state)) }

    public func load(request: Notifications.Load.Request) {
        state.isLoading = true
        state.error = nil
        present()
        let load = Task { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) in try await worker.notifications() }
            guard let self else { return }
            self.state.isLoading = false
            switch result {
            case .success(let items):
                self.state.items = items
                self.state.hasLoaded = true
            case .failure(.cancelled): break
            case .failure(let error): self.state.error = error
            }
            self.present()
        }
        loadTask = load
        tasks.append(load)
    }

    public func markRead(request: Notifications.MarkRead.Request) {
        guard state.items.indices.contains(request.index), !state.items[request.index].read else { return }
        mark([state.items[request.index].id])
    }

    public func markAllRead(request: Notifications.MarkAllRead.Request) {
        mark(state.items.filter { !$0.read }.map(\.id))
    }

    /// Shows the notifications read at once, and puts back any the server refused.
    private func mark(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        setRead(ids, true)
        state.error = nil
        present()
        // Holds the worker, not the scene: the requests finish even if the screen is closed meanwhile.
        tasks.append(Task { [weak self, worker] in
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
        })
    }

    private func setRead(_ ids: [String], _ read: Bool) {
        for index in state.items.indices where ids.contains(state.items[index].id) {
            state.items[index].read = read
        }
    }

    public func close(request: Notifications.Close.Request) {
        route(.close(unread: state.hasLoaded ? state.items.filter { !$0.read }.count : nil))
    }

    /// Waits for every request this scene started (tests use it).
    func settle() async {
        for task in tasks { await task.value }
    }
}
