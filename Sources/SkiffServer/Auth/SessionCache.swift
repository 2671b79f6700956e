import Foundation
import Synchronization

/// Sessions as last read from the database, so that most authenticated requests need not read theirs again
/// (docs/decisions/0203-session-cache-emptied-by-the-events-log.md).
///
/// It serves nothing until it is `live`: until something that sees every commit of every instance empties it when a
/// session may have changed. That is the events log: locking or revoking a session writes an event
/// (`EventSchema.sources`), and the events of a commit are delivered, by user, to every instance that listens
/// (`RepositoryStore.deliverEvents`), which forgets that user's sessions here. While that delivery is down (a lost
/// `LISTEN` connection) the cache is not live and every request reads its session, as without it.
///
/// A read that raced a change cannot put back what the change ended: a reader takes a `Ticket` before it reads, and
/// keeps what it read only if its user's sessions were not forgotten since (`keep`).
final class SessionCache: Sendable {
    /// When a read began, in the cache's own count of forgettings.
    struct Ticket: Sendable {
        fileprivate let epoch: UInt64
    }

    private struct Entry {
        var session: SessionRecord
        var readAt: Date
    }

    private struct State {
        var live = false
        var entries: [String: Entry] = [:]
        /// Token hashes by user, to forget a user's sessions.
        var hashesByUser: [String: [String]] = [:]
        /// Bumped by every forgetting.
        var epoch: UInt64 = 0
        /// The epoch at which each user's sessions were last forgotten.
        var forgotten: [String: UInt64] = [:]
        /// Reads that began before this epoch are not kept (set when everything is forgotten).
        var floor: UInt64 = 0

        mutating func forgetEverything() {
            epoch += 1
            floor = epoch
            dropEntries()
            forgotten.removeAll(keepingCapacity: true)
        }

        /// Forgets `userID`'s sessions, and any read of them begun before now.
        mutating func forget(userID: String, capacity: Int) {
            epoch += 1
            guard forgotten.count < capacity else { return forgetEverything() }
            forgotten[userID] = epoch
            for hash in hashesByUser.removeValue(forKey: userID) ?? [] { entries[hash] = nil }
        }

        mutating func dropEntries() {
            entries.removeAll(keepingCapacity: true)
            hashesByUser.removeAll(keepingCapacity: true)
        }
    }

    private let state = Mutex(State())
    /// The most sessions kept; past it, the cache starts over.
    let capacity: Int
    /// A session read longer ago than this is read again, whatever was delivered: the bound on what a delivery lost
    /// unnoticed (a connection that died without closing) can leave behind.
    let maximumAge: TimeInterval

    init(capacity: Int = 100_000, maximumAge: TimeInterval = 10) {
        self.capacity = capacity
        self.maximumAge = maximumAge
    }

    /// Whether changes are being delivered, so that what is kept may be served.
    var isLive: Bool { state.withLock { $0.live } }

    /// Starts serving (the delivery of changes has begun) or stops (it has ended); either way everything kept so far
    /// is forgotten, since changes made while nobody listened were never delivered.
    func setLive(_ live: Bool) {
        state.withLock { state in
            state.forgetEverything()
            state.live = live
        }
    }

    /// The session of `tokenHash` as read less than `maximumAge` before `now`, or nil.
    func session(tokenHash: String, at now: Date) -> SessionRecord? {
        state.withLock { state in
            guard state.live, let entry = state.entries[tokenHash],
                  now.timeIntervalSince(entry.readAt) < maximumAge
            else { return nil }
            return entry.session
        }
    }

    /// Taken before reading a session from the database, and handed to `keep` with what was read.
    func ticket() -> Ticket {
        state.withLock { Ticket(epoch: $0.epoch) }
    }

    /// Keeps `session`, read at `now` after `ticket` was taken, unless its user's sessions were forgotten since.
    func keep(_ session: SessionRecord, ticket: Ticket, at now: Date) {
        state.withLock { state in
            guard state.live, ticket.epoch >= state.floor, state.forgotten[session.userID, default: 0] <= ticket.epoch
            else { return }
            if state.entries[session.tokenHash] == nil {
                if state.entries.count >= capacity { state.dropEntries() }
                state.hashesByUser[session.userID, default: []].append(session.tokenHash)
            }
            state.entries[session.tokenHash] = Entry(session: session, readAt: now)
        }
    }

    /// Forgets the sessions of `userID` (an event of the user's committed: a session may have been locked or revoked).
    func forget(userID: String) {
        state.withLock { $0.forget(userID: userID, capacity: capacity) }
    }

    /// Forgets the session of `tokenHash` and every other of its user's; when it is not kept, no read begun before
    /// this is kept either (its user is unknown here).
    func forget(tokenHash: String) {
        state.withLock { state in
            if let userID = state.entries[tokenHash]?.session.userID {
                state.forget(userID: userID, capacity: capacity)
            } else {
                state.epoch += 1
                state.floor = state.epoch
            }
        }
    }

    /// Forgets everything (delivery may have missed changes: it began again after a loss).
    func forgetEverything() {
        state.withLock { $0.forgetEverything() }
    }

    /// How many sessions are kept.
    var count: Int { state.withLock { $0.entries.count } }
}
