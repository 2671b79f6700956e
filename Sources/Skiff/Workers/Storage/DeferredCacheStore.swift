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
        store()?.loadHome(userID: userID)
    }

    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date) {
        store()?.saveHome(snapshot, userID: userID, at: date)
    }

    func clear() {
        store()?.clear()
    }
}
