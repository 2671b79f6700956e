import Foundation
import Logging
import SkiffCore
import Synchronization

/// The Home cache, opened once the first frame is on the terminal instead of before it.
///
/// Opening the cache checks and migrates its SQLite file, and on a first run creates it and waits for the disk
/// (`fdatasync`): a first start to Login waited for that, and a slow disk made single starts take hundreds of
/// milliseconds. The app calls `open()` off the main actor after the first frame; a use that comes first opens it
/// itself, and one that comes while it opens waits for it. A cache that cannot be opened is logged once, and Home
/// then starts from the server as it would with an empty cache.
final class DeferredCacheStore: CacheStoring {
    private enum State {
        case waiting(@Sendable () throws -> any CacheStoring)
        case open(any CacheStoring)
        case unavailable
    }

    private let state: Mutex<State>
    private let logger: Logger

    /// Each user's latest snapshot not yet written, and whether a write is on its way.
    private struct Writes {
        var pending: [String: (snapshot: HomeSnapshot, date: Date)] = [:]
        var scheduled = false
    }
    private let writes = Mutex(Writes())
    private let writer = DispatchQueue(label: "skiff.home-cache-writes")
    /// Saves within this of the first unwritten one are written together, as the last of them.
    static let writeDelay: DispatchTimeInterval = .milliseconds(250)

    /// A cache that `opening` opens at the first `open()` or use.
    init(logger: Logger, opening: @escaping @Sendable () throws -> any CacheStoring) {
        state = Mutex(.waiting(opening))
        self.logger = logger
    }

    /// Opens the cache now unless it is open already (or could not be opened).
    func open() {
        _ = store()
    }

    private func store() -> (any CacheStoring)? {
        state.withLock { state in
            switch state {
            case .open(let store):
                return store
            case .unavailable:
                return nil
            case .waiting(let opening):
                do {
                    let store = try opening()
                    state = .open(store)
                    return store
                } catch {
                    logger.error("The Home cache could not be opened; Home starts from the server", metadata: ["error": "\(error)"])
                    state = .unavailable
                    return nil
                }
            }
        }
    }

    func loadHome(userID: String) -> CachedHome? {
        flush()
        return store()?.loadHome(userID: userID)
    }

    /// Keeps `snapshot` to write off the caller's thread, within `writeDelay`, with whatever else comes meanwhile:
    /// the last one wins. Home saves at every change the live stream brings; encoding and writing each one on the
    /// main thread took 44 % of the app's CPU under 50 transfers a second and tripled a keypress's time (issue 47).
    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date) {
        let schedule = writes.withLock { writes -> Bool in
            writes.pending[userID] = (snapshot, date)
            defer { writes.scheduled = true }
            return !writes.scheduled
        }
        if schedule { writer.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in writePending() } }
    }

    /// Writes what is pending now, on the caller's thread once earlier writes are done; the app calls it as it ends.
    func flush() {
        writer.sync { writePending() }
    }

    /// Drops what is pending (a signed-out user's Home is not written after it) and clears the file.
    func clear() {
        writes.withLock { $0.pending = [:] }
        writer.sync { store()?.clear() }
    }

    /// On `writer`.
    private func writePending() {
        let pending = writes.withLock { writes in
            defer {
                writes.pending = [:]
                writes.scheduled = false
            }
            return writes.pending
        }
        guard !pending.isEmpty, let store = store() else { return }
        for (userID, next) in pending { store.saveHome(next.snapshot, userID: userID, at: next.date) }
    }
}
