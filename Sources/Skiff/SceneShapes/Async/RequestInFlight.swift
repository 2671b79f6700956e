import TerminalUI

/// The one request a scene has running at a time, started on the app's tracked tasks: a second start while one
/// runs is ignored, Esc cancels it (or, with nothing running, leaves the scene), and it is cancelled when the
/// scene goes away.
@MainActor
final class RequestInFlight {
    private let tasks: TaskTracker
    private var current: (id: Int, task: Task<Void, Never>)?
    private var nextID = 0

    init(tasks: TaskTracker) {
        self.tasks = tasks
    }

    isolated deinit { current?.task.cancel() }

    var isRunning: Bool { current != nil }

    /// Runs `work` off the main actor, then `finish` on it with the outcome, unless a request is already
    /// running. The request counts as running until `finish` is called.
    func start<Value: Sendable>(
        _ work: @escaping @Sendable () async -> Value, then finish: @escaping @MainActor (Value) -> Void
    ) {
        guard current == nil else { return }
        let id = nextID
        nextID += 1
        let task = tasks.run { [weak self] in
            let value = await work()
            guard let self, self.current?.id == id else { return }
            self.current = nil
            finish(value)
        }
        current = (id, task)
    }

    /// Calls a worker and finishes with its result.
    func call<Value: Sendable>(
        _ call: @escaping @Sendable () async throws(NetworkError) -> Value,
        then finish: @escaping @MainActor (Result<Value, NetworkError>) -> Void
    ) {
        start({ await Result.capture(call) }, then: finish)
    }

    /// Stops the running request; its `finish` still runs, with whatever the cancelled call answered.
    func cancel() {
        current?.task.cancel()
    }

    /// Esc: cancels the running request, or, with nothing running, leaves.
    func cancel(orElse leave: () -> Void) {
        if let current {
            current.task.cancel()
        } else {
            leave()
        }
    }

    /// Stops the running request and forgets it at once: its `finish` never runs, and a new one may start.
    func abandon() {
        current?.task.cancel()
        current = nil
    }
}
