import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
                nameCurrentThread("\(name)-\(index)")
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

/// Names the calling thread for `top -H` and `perf`. On Linux it writes the thread's `comm` itself (15 bytes kept):
/// Foundation's `Thread.name` passes a name on only once `start()` has returned in the starting thread, which a busy
/// machine may run after the new thread has set it.
private func nameCurrentThread(_ name: String) {
    #if os(Linux)
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    #else
    Thread.current.name = name
    #endif
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
