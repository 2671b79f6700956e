import Foundation
import NIOConcurrencyHelpers

/// Sessions this instance read lately, so a burst of requests with one token reads the database once, not once
/// per request.
///
/// An entry is believed for `lifetime` after it was read. What this instance changes it changes here too (a
/// logout, a password reset, a touch), so one instance is never wrong; a logout or reset made on another instance
/// sharing the database is honoured here within `lifetime` (`SkiffServerLimits.sessionCacheLifetime`, 1 s).
final class SessionCache: Sendable {
    private struct Entry {
        var session: SessionRecord
        let readAt: Date
    }

    let lifetime: TimeInterval
    /// At most this many sessions are kept; when full, stale entries go first, then all of them.
    let capacity: Int
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    init(lifetime: TimeInterval, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The session of `tokenHash` as read less than `lifetime` before `now`, or nil.
    func session(tokenHash: String, now: Date) -> SessionRecord? {
        guard lifetime > 0 else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard now.timeIntervalSince(entry.readAt) < lifetime, now >= entry.readAt else {
                entries[tokenHash] = nil
                return nil
            }
            return entry.session
        }
    }

    /// Keeps `session`, read from the database at `readAt`.
    func keep(_ session: SessionRecord, readAt: Date) {
        guard lifetime > 0 else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[session.tokenHash] == nil {
                entries = entries.filter { readAt.timeIntervalSince($0.value.readAt) < lifetime }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[session.tokenHash] = Entry(session: session, readAt: readAt)
        }
    }

    /// Records that the session of `tokenHash` was used at `date`, as the database now says.
    func touched(tokenHash: String, at date: Date) {
        entries.withLockedValue { $0[tokenHash]?.session.lastUsedAt = date }
    }

    func forget(tokenHash: String) {
        entries.withLockedValue { $0[tokenHash] = nil }
    }

    /// Forgets every session of `userID` (after a password reset revoked them all).
    func forget(userID: String) {
        entries.withLockedValue { entries in entries = entries.filter { $0.value.session.userID != userID } }
    }
}
