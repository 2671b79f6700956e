/// Async work on the main actor that can be waited for: every task started here is kept until it ends, so a
/// test (or the application) can `settle()` instead of sleeping or yielding in a loop.
@MainActor
public final class TaskTracker {
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextID = 0
    /// Called on the main actor after each tracked task ends (the application redraws then).
    var onTaskEnd: @MainActor () -> Void = {}

    public init() {}

    /// How many tracked tasks are still running.
    var runningCount: Int { tasks.count }

    /// Starts `operation` on the main actor and tracks it until it ends.
    @discardableResult
    public func run(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let id = nextID
        nextID += 1
        let task = Task { @MainActor [weak self] in
            await operation()
            self?.tasks[id] = nil
            self?.onTaskEnd()
        }
        tasks[id] = task
        return task
    }

    /// Waits until every tracked task has ended but `held()` of them, which the caller keeps waiting on
    /// purpose (a test holding a request open to look at the screen meanwhile). Other work gets turns while
    /// it waits; it never sleeps.
    public func settle(leaving held: @MainActor () -> Int) async {
        for _ in 0..<100_000 where tasks.count > held() {
            await Task.yield()
        }
    }

    /// Waits until every tracked task, including tasks those tasks started, has ended; other main-actor work
    /// gets a few turns in between. When the waiting task is cancelled (a test over its time limit), the tasks
    /// waited for are cancelled too, so a request that never answers ends the wait instead of hanging it.
    public func settle() async {
        for _ in 0..<1_000 {
            for _ in 0..<10 {
                await Task.yield()
            }
            guard let task = tasks.values.first else { return }
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }
}
