import Foundation
import Synchronization

/// The open event streams of this process, by user: the store's delivery rings a user's streams when events of
/// theirs commit, and each stream then reads them from the table. An idle stream is a parked task and an entry here:
/// nothing runs for it until a ring, its keep-alive tick or the shutdown.
final class EventHub: Sendable {
    /// What wakes a stream.
    enum Bell: Sendable, Equatable {
        /// Events of the user's may have committed.
        case ring
        /// The keep-alive interval passed.
        case tick
        /// The server is shutting down: end with a reconnect hint.
        case closing
    }

    private struct State {
        var streams: [String: [UInt64: AsyncStream<Bell>.Continuation]] = [:]
        /// Open streams by client address (`ClientAddress.limitKey`).
        var byAddress: [String: Int] = [:]
        var count = 0
        var nextID: UInt64 = 0
        var closing = false
    }

    private let state = Mutex(State())
    let perUser: Int
    let perServer: Int
    let perAddress: Int

    init(perUser: Int, perServer: Int, perAddress: Int) {
        self.perUser = perUser
        self.perServer = perServer
        self.perAddress = perAddress
    }

    /// One open stream's place in the hub; leaving it (or its release) frees the place.
    final class Subscription: Sendable {
        let bells: AsyncStream<Bell>
        let continuation: AsyncStream<Bell>.Continuation
        fileprivate let id: UInt64
        fileprivate let userID: String
        fileprivate let address: String
        fileprivate let hub: EventHub

        fileprivate init(id: UInt64, userID: String, address: String, hub: EventHub) {
            (bells, continuation) = AsyncStream.makeStream(of: Bell.self)
            self.id = id
            self.userID = userID
            self.address = address
            self.hub = hub
        }

        /// The stream's connection closed: its place is freed now, not at its next write (a keep-alive away), and
        /// the stream ends.
        func end() { hub.leave(self) }

        deinit { hub.leave(self) }
    }

    /// A place for a stream of `userID`'s from `address`, or nil when the user, the address or the server has as
    /// many as allowed.
    func subscribe(userID: String, address: String) -> Subscription? {
        state.withLock { state -> Subscription? in
            guard !state.closing, state.count < perServer, (state.streams[userID]?.count ?? 0) < perUser,
                  state.byAddress[address, default: 0] < perAddress
            else { return nil }
            state.nextID += 1
            let subscription = Subscription(id: state.nextID, userID: userID, address: address, hub: self)
            state.streams[userID, default: [:]][subscription.id] = subscription.continuation
            state.byAddress[address, default: 0] += 1
            state.count += 1
            return subscription
        }
    }

    /// Frees the subscription's place, once however often it is called.
    private func leave(_ subscription: Subscription) {
        state.withLock { state in
            if state.streams[subscription.userID]?.removeValue(forKey: subscription.id) != nil {
                state.count -= 1
                let left = state.byAddress[subscription.address, default: 1] - 1
                state.byAddress[subscription.address] = left > 0 ? left : nil
            }
            if state.streams[subscription.userID]?.isEmpty == true { state.streams[subscription.userID] = nil }
        }
        subscription.continuation.finish()
    }

    func ring(userID: String) {
        for continuation in state.withLock({ Array(($0.streams[userID] ?? [:]).values) }) { continuation.yield(.ring) }
    }

    /// After a gap in delivery (a lost PostgreSQL listener): every stream reads what it may have missed.
    func ringAll() {
        for continuation in state.withLock({ $0.streams.values.flatMap(\.values) }) { continuation.yield(.ring) }
    }

    /// Ends every stream with a reconnect hint, and takes no new ones (a graceful shutdown).
    func close() {
        let all = state.withLock { state in
            state.closing = true
            return state.streams.values.flatMap(\.values)
        }
        for continuation in all { continuation.yield(.closing) }
    }

    var openStreams: Int { state.withLock { $0.count } }
}
