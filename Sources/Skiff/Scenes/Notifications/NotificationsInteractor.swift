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

    public init(presenter: any NotificationsPresentationLogic, worker: any NotificationsWorking) {
        self.presenter = presenter
        self.worker = worker
    }

    isolated deinit { tasks.forEach { $0.cancel() } }

    private func present() { presenter.presentUpdate(response: .init(state: state)) }

    public func load(request: Notifications.Load.Request) {
        state.isLoading = true
        state.error = nil
        present()
        tasks.append(Task { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) in try await worker.notifications() }
            guard let self else { return }
            self.state.isLoading = false
            self.state.hasLoaded = true
            switch result {
            case .success(let items): self.state.items = items
            case .failure(.cancelled): break
            case .failure(let error): self.state.error = error
            }
            self.present()
        })
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
        route(.close(unread: state.items.filter { !$0.read }.count))
    }

    /// Waits for every request this scene started (tests use it).
    func settle() async {
        for task in tasks { await task.value }
    }
}
