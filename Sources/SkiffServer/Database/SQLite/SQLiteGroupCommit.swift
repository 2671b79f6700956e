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
///
/// A piece may leave writes in the batch's `Tail`, made once after the last piece: the statement lines of a batch of
/// transfers are one `INSERT`, because FTS5 writes its pending terms as a new segment at each statement's savepoint
/// ([0177](../../../../docs/decisions/0177-statement-lines-at-the-end-of-a-group-commit.md)). If the tail fails, the
/// batch is rolled back and its pieces are committed one at a time, each with its own tail.
final class SQLiteGroupCommit<Work: Sendable, Outcome: Sendable, Tail: SQLiteBatchTail>: Sendable {
    /// One piece of work in the open transaction; what it leaves in the tail is written after the batch's last piece.
    typealias Step = @Sendable (Work, inout Tail, Database) throws -> Outcome

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

    /// The batch's tail threw `error`: which piece left the write that failed is not known.
    private struct TailFailed: Error {
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

    /// A group commit whose pieces leave nothing for the batch's end.
    convenience init(pool: MeteredPool, step: @escaping @Sendable (Work, Database) throws -> Outcome)
    where Tail == NoBatchTail {
        self.init(pool: pool) { work, _, db in try step(work, db) }
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

    /// Commits batch after batch until nobody waits. When a batch's tail fails, its pieces are committed one at a
    /// time, so that the failure reaches the caller whose piece caused it.
    private func drain() async {
        var batch: [Waiting] = []
        var alone = 0
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
            let size = alone > 0 ? 1 : batch.count
            let works = batch.prefix(size).map { $0.work }
            let step = self.step
            do {
                let outcomes = try await pool.writeWithoutTransaction { db in try Self.commit(works, step: step, db) }
                sizes.withLock { $0[size, default: 0] += 1 }
                answered(size)
                for (waiting, outcome) in zip(batch.prefix(size), outcomes) { waiting.continuation.resume(returning: outcome) }
                batch.removeFirst(size)
                alone = max(0, alone - size)
            } catch let failed as StepFailed {
                answered(1)
                batch.remove(at: failed.index).continuation.resume(throwing: failed.error)
                alone = max(0, alone - 1)
            } catch is TailFailed where size > 1 {
                alone = batch.count
            } catch {
                let error = (error as? TailFailed)?.error ?? error
                answered(size)
                for waiting in batch.prefix(size) { waiting.continuation.resume(throwing: error) }
                batch.removeFirst(size)
                alone = max(0, alone - size)
            }
        }
    }

    private func answered(_ count: Int) {
        state.withLock { $0.unanswered -= count }
    }

    /// Runs `works` in one `BEGIN IMMEDIATE` transaction, writes what they left in the tail, and commits.
    private static func commit(_ works: [Work], step: Step, _ db: Database) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(works.count)
        try db.inTransaction(.immediate) {
            var tail = Tail()
            for (index, work) in works.enumerated() {
                do {
                    outcomes.append(try step(work, &tail, db))
                } catch {
                    throw StepFailed(index: index, error: error)
                }
            }
            do {
                try tail.write(db)
            } catch {
                throw TailFailed(error: error)
            }
            return .commit
        }
        return outcomes
    }
}

/// Writes a batch's pieces leave for its end, made once after them all and before the commit: one statement for
/// what would otherwise be one a piece. A piece that refuses leaves nothing here, as it writes nothing.
protocol SQLiteBatchTail: SendableMetatype {
    init()
    /// Writes what the pieces left; a failure rolls back the batch, whose pieces are then committed one at a time.
    func write(_ db: Database) throws
}

/// The tail of a group commit whose pieces write everything themselves.
struct NoBatchTail: SQLiteBatchTail {
    func write(_ db: Database) throws {}
}
