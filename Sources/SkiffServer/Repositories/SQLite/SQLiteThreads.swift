import Foundation

/// Threads of the server's own for SQLite's blocking calls: a call waits on one of them, not on Swift's pool (one
/// thread per core), and reaches its connection there through GRDB's synchronous API.
final class SQLiteThreads: Sendable {
    private let jobs: JobQueue
    /// How many threads there are.
    let count: Int

    /// Starts `count` threads named `name`-0, `name`-1, …; they end once this is released (a call in progress holds
    /// it, so none is left unanswered).
    init(count: Int, name: String) {
        let jobs = JobQueue()
        self.jobs = jobs
        self.count = count
        for index in 0..<count {
            Thread {
                // Named from the thread itself, where Foundation passes it on to the system (`top -H`, `perf`).
                Thread.current.name = "\(name)-\(index)"
                while let job = jobs.next() { job() }
            }.start()
        }
    }

    deinit { jobs.close() }

    /// Runs `body` on one of the threads and answers with what it returned or threw.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withUnsafeThrowingContinuation { continuation in
            jobs.push { continuation.resume(with: Result(catching: body)) }
        }
    }
}

/// The work waiting for a thread, first in first out.
private final class JobQueue: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var head = 0
    private var closed = false

    func push(_ job: @escaping Job) {
        condition.lock()
        waiting.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one; nil once closed and nothing is left.
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == waiting.count {
            if closed { return nil }
            condition.wait()
        }
        let job = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
