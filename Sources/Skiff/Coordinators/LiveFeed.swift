import TerminalUI

/// Runs the live event stream while someone is signed in and the app is not locked, and hands each update to the
/// main actor: the session's end to the app coordinator (as a 423 or 401 answer would), the rest to Home's business
/// logic. Its task is not one of the application's tracked tasks (it never ends by itself, so `settle()` must not
/// wait for it); the main actor runs only when an update arrives.
@MainActor
final class LiveFeed {
    private let worker: any LiveEventsWorking
    private var task: Task<Void, Never>?
    /// Each update but the session's end.
    var onUpdate: (LiveUpdate) -> Void = { _ in }
    var onSessionLocked: () -> Void = {}
    var onSessionRevoked: () -> Void = {}

    init(worker: any LiveEventsWorking) {
        self.worker = worker
    }

    var isRunning: Bool { task != nil }

    /// Starts the stream unless it runs.
    func start() {
        guard task == nil else { return }
        let updates = worker.updates()
        task = Task { [weak self] in
            for await update in updates {
                guard let self, !Task.isCancelled else { return }
                self.deliver(update)
            }
            self?.task = nil
        }
    }

    func stop() {
        task?.cancel()
        task = nil
    }

    private func deliver(_ update: LiveUpdate) {
        switch update {
        case .event(.sessionLocked):
            stop()
            onSessionLocked()
        case .event(.sessionRevoked):
            stop()
            onSessionRevoked()
        default:
            onUpdate(update)
        }
    }
}
