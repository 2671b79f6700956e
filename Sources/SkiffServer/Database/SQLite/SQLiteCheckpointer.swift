import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Moves the WAL's pages into the database file mostly on a connection of its own, so that commits seldom wait for a
/// checkpoint ([0166](../../../../docs/decisions/0166-sqlite-group-commit-and-checkpoints-off-the-writer.md)).
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 frames, on the one writer:
/// that commit copies the pages and waits for two fsyncs while every other write queues behind it. Installed on
/// the writer, this replaces it (SQLite keeps one WAL hook per connection): a commit past `threshold` frames only
/// asks this checkpointer's queue for a `PASSIVE` checkpoint, which copies the pages beside the writer and the
/// readers. The WAL can only start over from its beginning when a checkpoint has copied all of it before the next
/// write begins, which a checkpoint running beside a busy writer never sees; so a commit that finds the WAL at
/// `inPlaceThreshold` checkpoints in place (`PASSIVE`, as SQLite would have) unless a background checkpoint is still
/// running, and copies only what the background left. A commit that finds `waitingThreshold` waits for the background
/// one first (waiting at 2,000 cost a sixth of the transfers). Nothing here waits for a reader: the WAL stays near
/// 2,000 frames (8 MB) and under 4,000 plus a commit, unless a reader holds an old snapshot for long, as with SQLite's
/// own checkpoint.
final class SQLiteCheckpointer: Sendable {
    /// SQLite's own default for the automatic checkpoint.
    static let threshold: Int32 = 1_000
    static let inPlaceThreshold: Int32 = 2 * threshold
    /// Past this the commit waits for a background checkpoint still running before its own.
    static let waitingThreshold: Int32 = 4 * threshold

    private let path: String
    private let queue = DispatchQueue(label: "skiff.sqlite.checkpoint", qos: .utility)
    private let scheduled = Atomic<Bool>(false)
    /// Opened by the first background checkpoint, then kept. Held by every checkpoint, in the background or in place,
    /// so that they run one at a time (another would only find the checkpoint lock taken).
    private let connection = Mutex<DatabaseQueue?>(nil)
    private let completed = Atomic<Int>(0)

    init(path: String) {
        self.path = path
    }

    /// Checkpoints run so far on the checkpointer's own connection (for tests and benchmarks).
    var checkpoints: Int { completed.load(ordering: .relaxed) }

    /// Takes over the automatic checkpoint of `db`, the pool's writer. The hook holds this object unretained: the
    /// pool's configuration, which keeps the writer open, holds it strongly.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, sqliteCheckpointerHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called on the writer after each commit, with the WAL's frame count.
    fileprivate func committed(frames: Int32, writer: OpaquePointer?, name: UnsafePointer<CChar>?) {
        if frames >= Self.waitingThreshold {
            connection.withLock { _ in _ = sqlite3_wal_checkpoint(writer, name) }
            return
        }
        if frames >= Self.inPlaceThreshold {
            if connection.withLockIfAvailable({ _ in sqlite3_wal_checkpoint(writer, name) }) != nil { return }
        }
        guard frames >= Self.threshold, !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { self.checkpoint() }
    }

    private func checkpoint() {
        scheduled.store(false, ordering: .releasing)
        connection.withLock { connection in
            do {
                if connection == nil { connection = try DatabaseQueue(path: path) }
                try connection?.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
                completed.add(1, ordering: .relaxed)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                // Another process's checkpoint: left to the next commit past the threshold.
            } catch {
                // Opened again by the next one; the commit that checkpoints in place keeps the WAL bounded meanwhile.
                connection = nil
            }
        }
    }
}

/// SQLite's WAL hook (a C function: it cannot capture); `context` is the `SQLiteCheckpointer`.
private func sqliteCheckpointerHook(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ frames: Int32
) -> Int32 {
    guard let context else { return SQLITE_OK }
    Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
        .committed(frames: frames, writer: connection, name: name)
    return SQLITE_OK
}
