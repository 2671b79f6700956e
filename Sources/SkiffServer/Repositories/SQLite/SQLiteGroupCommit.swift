import GRDB
import Synchronization

/// Group commit on SQLite's one writer
/// ([0166](../../../../docs/decisions/0166-sqlite-group-commit-and-checkpoints-off-the-writer.md)): the pieces of
/// work that arrive while the writer is busy wait, then run one after the other in one `BEGIN IMMEDIATE`
/// transaction, and every caller is answered after that one commit. Each piece sees the ones before it, as if they
/// had committed one by one.
///
/// A step must write nothing when it refuses (it returns its refusal as its outcome), so that a refusal needs no
/// savepoint: a savepoint per piece would cost more than the shared commit saves (the search index flushes its
/// pending rows at every savepoint). A step that throws may have written part of its work: the whole transaction is
/// rolled back, that caller gets the error, and the others run again without it. A failure of the transaction itself
/// (`BEGIN`, `COMMIT`) answers every caller in the batch with it; nothing of the batch was written. Nobody waits for a
/// batch to fill: the first caller finds the writer free and goes alone; only callers that arrive during a commit
/// share the next one.
final class SQLiteGroupCommit<Work: Sendable, Outcome: Sendable>: Sendable {
    /// One piece of work in the open transaction.
    typealias Step = @Sendable (Work, Database) throws -> Outcome

    /// At most this many callers share a commit, which bounds how long the writer is held at once.
    static var maximumBatch: Int { 64 }

    private struct Waiting {
        var work: Work
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var unanswered = 0
        var draining = false
    }

    /// The piece at `index` threw `error`.
    private struct StepFailed: Error {
        var index: Int
        var error: any Error
    }

    private let pool: MeteredPool
    private let step: Step
    private let state = Mutex(State())
    private let sizes = Mutex<[Int: Int]>([:])

    init(pool: MeteredPool, step: @escaping Step) {
        self.pool = pool
        self.step = step
    }

    /// How many commits have carried how many pieces of work (for tests and benchmarks).
    var commitsBySize: [Int: Int] { sizes.withLock { $0 } }

    /// Pieces of work waiting for a commit to take them, and those not answered yet (waiting or in a commit).
    var pending: (waiting: Int, unanswered: Int) { state.withLock { ($0.waiting.count, $0.unanswered) } }

    /// Runs `work` in the next commit and answers once that commit is done.
    func run(_ work: Work) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let starts = state.withLock { state in
                state.waiting.append(Waiting(work: work, continuation: continuation))
                state.unanswered += 1
                defer { state.draining = true }
                return !state.draining
            }
            // Detached: the commits are everyone's, not the first caller's (its task-locals, its priority).
            if starts { Task.detached { await self.drain() } }
        }
    }

    /// Commits batch after batch until nobody waits.
    private func drain() async {
        var batch: [Waiting] = []
        while true {
            if batch.isEmpty {
                batch = state.withLock { state in
                    let taken = Array(state.waiting.prefix(Self.maximumBatch))
                    state.waiting.removeFirst(taken.count)
                    if taken.isEmpty { state.draining = false }
                    return taken
                }
            }
            if batch.isEmpty { return }
            let works = batch.map { $0.work }
            let step = self.step
            do {
                let outcomes = try await pool.writeWithoutTransaction { db in try Self.commit(works, step: step, db) }
                sizes.withLock { $0[batch.count, default: 0] += 1 }
                answered(batch.count)
                for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
                batch = []
            } catch let failed as StepFailed {
                answered(1)
                batch.remove(at: failed.index).continuation.resume(throwing: failed.error)
            } catch {
                answered(batch.count)
                for waiting in batch { waiting.continuation.resume(throwing: error) }
                batch = []
            }
        }
    }

    private func answered(_ count: Int) {
        state.withLock { $0.unanswered -= count }
    }

    /// Runs `works` in one `BEGIN IMMEDIATE` transaction and commits it.
    private static func commit(_ works: [Work], step: Step, _ db: Database) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(works.count)
        try db.inTransaction(.immediate) {
            for (index, work) in works.enumerated() {
                do {
                    outcomes.append(try step(work, db))
                } catch {
                    throw StepFailed(index: index, error: error)
                }
            }
            return .commit
        }
        return outcomes
    }
}
