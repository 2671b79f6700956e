import Foundation
import Synchronization
import Testing
@testable import SkiffServer

/// The threads SQLite's calls run on: a call answers with its body's value or error, runs off the caller's thread,
/// as many run at once as there are threads, and work given before the threads are let go of is still done.
@Suite("SQLite threads")
struct SQLiteThreadsTests {
    struct Failed: Error, Equatable {}

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test("a call answers with what its body returned, run on one of the threads")
    func answers() async throws {
        let threads = SQLiteThreads(count: 2, name: "test-answers")
        let (value, name) = try await threads.run { (21 * 2, Thread.current.name ?? "") }
        #expect(value == 42)
        #expect(name.hasPrefix("test-answers-"))
    }

    @Test("a call throws what its body threw")
    func throwsTheBodysError() async throws {
        let threads = SQLiteThreads(count: 1, name: "test-throws")
        await #expect(throws: Failed.self) { try await threads.run { throw Failed() } }
        // The thread is still there for the next call.
        #expect(try await threads.run { "next" } == "next")
    }

    @Test("as many bodies run at once as there are threads")
    func runsAsManyAsThreads() async throws {
        let count = 3
        let threads = SQLiteThreads(count: count, name: "test-together")
        let arrived = Counter()
        // Each body waits until all have started: with fewer threads than bodies they would wait for ever, so the
        // wait is bounded and a body that gave up answers false.
        let together = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await threads.run {
                        arrived.value.add(1, ordering: .relaxed)
                        let deadline = Date().addingTimeInterval(10)
                        while arrived.value.load(ordering: .relaxed) < count, Date() < deadline { usleep(1_000) }
                        return arrived.value.load(ordering: .relaxed) == count
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(together == [true, true, true])
    }

    @Test("a database reads on one thread a core, at most one a reader, and writes on one")
    func threadsOfADatabase() {
        #expect(SQLiteThreadPools(readers: 5, cores: 2).reads.count == 2)
        #expect(SQLiteThreadPools(readers: 5, cores: 16).reads.count == 5)
        #expect(SQLiteThreadPools(readers: 5, cores: 0).reads.count == 1)
        #expect(SQLiteThreadPools(readers: 5, cores: 2).writes.count == 1)
    }

    @Test("the threads end once nobody holds them")
    func endWhenReleased() async throws {
        var threads: SQLiteThreads? = SQLiteThreads(count: 2, name: "test-release")
        #expect(try await threads?.run { 1 } == 1)
        #expect(try await Self.threadsNamed("test-release-", become: 2) == 2)
        threads = nil
        #expect(try await Self.threadsNamed("test-release-", become: 0) == 0)
    }

    /// How many threads are named `prefix`…, once that is `count` or after 10 s.
    private static func threadsNamed(_ prefix: String, become count: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        while threadsNamed(prefix) != count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return threadsNamed(prefix)
    }

    /// This process's threads whose name starts with `prefix` (Linux's `/proc`).
    private static func threadsNamed(_ prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.count { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.hasPrefix(prefix) ?? false
        }
    }
}
