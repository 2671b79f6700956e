import Foundation
import OpenAPIRuntime
import ServiceLifecycle
import SkiffAPI

/// One response of `GET /v1/events`: a `retry:` hint, the user's events after `Last-Event-ID` read from the table,
/// then, for a client that waits (`Accept: text/event-stream`), each ring's new events as they commit, a comment every
/// keep-alive interval, and an end: the session's lock or revocation (its last event), the stream's lifetime, or the
/// server's shutdown (a shorter `retry:` hint). A client that does not wait gets the catch-up and the end at once
/// (docs/decisions/0157-event-stream-ends-unless-asked-to-wait.md).
struct EventStream: AsyncSequence, Sendable {
    typealias Element = ServerSentEventWithJSONData<Components.Schemas.LiveEvent>

    /// What every stream of a server shares.
    struct Settings: Sendable {
        var events: any EventRepository
        var sessions: SessionService
        var clock: any ServerClock
        var limits: SkiffServerLimits
    }

    let settings: Settings
    let subscription: EventHub.Subscription
    let userID: String
    let tokenHash: String
    /// `Last-Event-ID`; nil starts from the user's newest event.
    let after: Int64?
    /// False: the catch-up only, then the end.
    let waits: Bool

    /// The most events read from the table at once.
    static let batch = 100

    func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// The bytes of the response: the runtime's encoding (`asEncodedServerSentEventsWithJSONData`), with the empty
    /// event that stands for a keep-alive written as a comment line.
    func encoded() -> HTTPBody {
        let encoder = LiveEventCoding.encoder()
        let keepAlive = ArraySlice(": keep-alive\n\n".utf8)
        let bytes = asEncodedServerSentEventsWithJSONData(encoder: encoder).map { chunk in
            chunk == [UInt8(ascii: "\n")] ? keepAlive : chunk
        }
        return HTTPBody(bytes, length: .unknown, iterationBehavior: .single)
    }

    struct Iterator: AsyncIteratorProtocol {
        private let stream: EventStream
        private var bells: AsyncStream<EventHub.Bell>.Iterator
        private var pending: [Element] = []
        private var lastID: Int64?
        private var started = false
        private var finished = false
        private var ticker: Task<Void, Never>?
        private var sessionCheckAt: Date
        private let endsAt: Date

        init(stream: EventStream) {
            self.stream = stream
            bells = stream.subscription.bells.makeAsyncIterator()
            lastID = stream.after
            let now = stream.settings.clock.now()
            sessionCheckAt = now
            endsAt = now.addingTimeInterval(stream.settings.limits.eventStreamLifetime)
        }

        mutating func next() async throws -> Element? {
            if !pending.isEmpty { return pending.removeFirst() }
            if finished {
                ticker?.cancel()
                return nil
            }
            let limits = stream.settings.limits
            if !started {
                started = true
                if lastID == nil {
                    lastID = stream.waits ? try await stream.settings.events.latestID(userID: stream.userID) : Int64.max
                    // Where the stream starts, as an id with no event: a client that comes back later (an unlock, a
                    // lost connection) sends it as `Last-Event-ID` and is caught up from there, though no event came
                    // meanwhile (issue 44).
                    if stream.waits, let start = lastID { pending.append(Element(id: String(start))) }
                }
                if stream.waits { startTicker() }
                return Element(retry: limits.eventRetryMilliseconds)
            }
            while true {
                try await readEvents()
                if !pending.isEmpty { return pending.removeFirst() }
                if !stream.waits || finished {
                    // Caught up, and not asked to wait (or the session ended): the response ends.
                    finished = true
                    ticker?.cancel()
                    return nil
                }
                let continuation = stream.subscription.continuation
                var box = bells
                let bell = await withGracefulShutdownHandler {
                    await box.next()
                } onGracefulShutdown: {
                    continuation.yield(.closing)
                }
                bells = box
                switch bell {
                case .ring:
                    continue
                case .tick:
                    if stream.settings.clock.now() >= endsAt { return end(retry: limits.eventRetryMilliseconds) }
                    try await checkSession()
                    if !pending.isEmpty || finished { return try await next() }
                    return Element()
                case .closing, nil:
                    return end(retry: limits.eventShutdownRetryMilliseconds)
                }
            }
        }

        /// Queues the events after `lastID`; a session's end is the last.
        private mutating func readEvents() async throws {
            guard let after = lastID, after < Int64.max else { return }
            var read: [EventRecord]
            repeat {
                read = try await stream.settings.events.events(
                    userID: stream.userID, sessionTokenHash: stream.tokenHash, after: lastID ?? after, limit: EventStream.batch
                )
                for record in read {
                    lastID = record.id
                    guard let event = record.liveEvent else { continue }
                    // A lock the session has been unlocked from since is history, not news: replayed to a stream
                    // that opens after the unlock (its `Last-Event-ID` from before the lock), it would lock the
                    // app again at once, and that lock would be replayed the next time (issue 42).
                    if record.kind == .sessionLocked, try await isUnlocked() { continue }
                    pending.append(Element(event: record.kind.rawValue, data: event, id: String(record.id)))
                    if record.kind == .sessionLocked || record.kind == .sessionRevoked {
                        finished = true
                        return
                    }
                }
            } while read.count == EventStream.batch
        }

        /// Whether the stream's session is signed in and not locked now.
        private func isUnlocked() async throws -> Bool {
            let session = try await stream.settings.sessions.authenticate(tokenHash: stream.tokenHash, recordingUse: false)
            return session.map { $0.lockedAt == nil } ?? false
        }

        /// At a tick once the session's idle lock is due: locks it then (the lock's event ends the stream), or ends
        /// the stream when the session has ended without one (expired, or idle past its end).
        private mutating func checkSession() async throws {
            let now = stream.settings.clock.now()
            guard now >= sessionCheckAt else { return }
            let limits = stream.settings.limits
            guard let session = try await stream.settings.sessions.authenticate(tokenHash: stream.tokenHash, recordingUse: false)
            else {
                pending.append(Element(
                    event: EventRecord.Kind.sessionRevoked.rawValue,
                    data: .sessionRevoked(.init(kind: .sessionRevoked, status: 401))
                ))
                finished = true
                return
            }
            sessionCheckAt = Swift.max(now, session.lastUsedAt.addingTimeInterval(limits.sessionLockAfter))
            if session.lockedAt != nil { try await readEvents() }
        }

        private mutating func end(retry milliseconds: Int64) -> Element {
            finished = true
            return Element(retry: milliseconds)
        }

        private mutating func startTicker() {
            let continuation = stream.subscription.continuation
            let interval = stream.settings.limits.eventKeepAliveInterval
            ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(interval))
                    if case .terminated = continuation.yield(.tick) { return }
                }
            }
        }
    }
}

extension EventRecord {
    /// The event as the contract words it; nil for a money event whose statement line is gone.
    var liveEvent: Components.Schemas.LiveEvent? {
        switch kind {
        case .moneyReceived, .moneySent:
            guard let line = transaction else { return nil }
            let event = Components.Schemas.MoneyMovedEvent(
                kind: kind == .moneyReceived ? .moneyReceived : .moneySent,
                transaction: line.api, amountMinor: line.amountMinor, currency: line.currency,
                counterparty: line.merchant, reference: line.reference ?? "",
                transferKind: transferKind == "topup" ? .topup : .transfer
            )
            return kind == .moneyReceived ? .moneyReceived(event) : .moneySent(event)
        case .balanceChanged:
            return .balanceChanged(.init(
                kind: .balanceChanged, balance: .init(amountMinor: balanceMinor ?? 0, currency: currency ?? "")
            ))
        case .notificationsChanged:
            return .notificationsChanged(.init(kind: .notificationsChanged, unreadNotifications: unread ?? 0))
        case .cardChanged:
            return .cardChanged(.init(kind: .cardChanged, cardId: cardID ?? ""))
        case .sessionLocked:
            return .sessionLocked(.init(kind: .sessionLocked, status: 423))
        case .sessionRevoked:
            return .sessionRevoked(.init(kind: .sessionRevoked, status: 401))
        }
    }
}

extension TransactionRecord {
    /// The contract's `Transaction`.
    var api: Components.Schemas.Transaction {
        .init(
            id: String(id), amountMinor: amountMinor, currency: currency, merchant: merchant, category: category,
            createdAt: createdAt, transferId: transferID, note: note, reference: reference
        )
    }
}
