import Foundation
import OpenAPIRuntime
import SkiffAPI
import SkiffCore
import Synchronization

/// The event stream over the generated client. It runs on the cooperative pool, never on the main actor: an idle
/// stream (the server's keep-alive comments included) costs the app's run loop nothing; only an event, or a change
/// between online and offline, is handed on.
final class LiveEventsWorker: LiveEventsWorking {
    private let api: APIClient
    /// The id of the last event received, kept across reconnects, locks and unlocks of this app's run.
    private let lastEventID = Mutex<String?>(nil)
    private let makePolicy: @Sendable () -> ReconnectPolicy

    /// `api` must allow a read to wait longer than the server's keep-alive interval (30 s).
    init(api: APIClient, policy: @escaping @Sendable () -> ReconnectPolicy = { ReconnectPolicy() }) {
        self.api = api
        makePolicy = policy
    }

    func updates() -> AsyncStream<LiveUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveUpdate.self)
        let task = Task { [self] in
            await run(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private enum Ending {
        /// The server ended the stream (its lifetime, a shutdown), saying so with a last hint: come back after it.
        case ended
        /// It could not be reached, or the stream broke or stopped without the server's last hint.
        case failed
        /// The session is over (locked or revoked): stop.
        case stop
        /// Too many streams: wait this long.
        case wait(Duration)
    }

    private func run(_ continuation: AsyncStream<LiveUpdate>.Continuation) async {
        var policy = makePolicy()
        var online: Bool?
        func report(_ isOnline: Bool) {
            guard online != isOnline else { return }
            online = isOnline
            continuation.yield(isOnline ? .online : .offline)
        }
        while !Task.isCancelled {
            let ending = await connect(continuation, policy: &policy, online: { report(true) })
            if Task.isCancelled { return }
            let wait: Duration
            switch ending {
            case .stop: return
            case .ended: wait = policy.afterEnd()
            case .failed:
                report(false)
                wait = policy.afterFailure()
            case .wait(let duration): wait = duration
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    private func connect(
        _ continuation: AsyncStream<LiveUpdate>.Continuation, policy: inout ReconnectPolicy, online: () -> Void
    ) async -> Ending {
        let output: Operations.StreamEvents.Output
        do {
            output = try await api.client.streamEvents(headers: .init(lastEventID: lastEventID.withLock { $0 }))
        } catch {
            return .failed
        }
        switch output {
        case .ok(let ok):
            guard case .textEventStream(let body) = ok.body else { return .failed }
            online()
            policy.connected()
            do {
                let events = body.asDecodedServerSentEventsWithJSONData(
                    of: Components.Schemas.LiveEvent.self, decoder: LiveEventCoding.decoder()
                )
                // The server opens a stream with a `retry:` hint and ends it on purpose with another (its lifetime, its
                // shutdown). A stream that stops without that second hint lost its server (killed, or the network
                // gone): offline at once, not after the hint's wait and a refused connection.
                var hints = 0
                for try await event in events {
                    if let retry = event.retry {
                        policy.hint(milliseconds: retry)
                        if event.data == nil, event.id == nil { hints += 1 }
                    }
                    if let id = event.id { lastEventID.withLock { $0 = id } }
                    guard let data = event.data, let live = Self.event(data) else { continue }
                    continuation.yield(.event(live))
                    if live == .sessionLocked || live == .sessionRevoked { return .stop }
                }
                return hints >= 2 ? .ended : .failed
            } catch {
                return Task.isCancelled ? .stop : .failed
            }
        case .default(let statusCode, let problem):
            // 401 and 423 reached the app through the client's middleware (Login, Lock): nothing to stream until
            // the app starts the stream again.
            if statusCode == 401 || statusCode == 423 { return .stop }
            if statusCode == 429 {
                let seconds = problem.headers.retryAfter ?? 30
                return .wait(.seconds(max(1, seconds)))
            }
            return .failed
        }
    }

    static func event(_ data: Components.Schemas.LiveEvent) -> LiveEvent? {
        switch data {
        case .moneyReceived(let event):
            return .moneyReceived(Transaction(api: event.transaction), from: event.counterparty, isTopUp: event.transferKind == .topup)
        case .moneySent(let event):
            return .moneySent(Transaction(api: event.transaction))
        case .balanceChanged(let event):
            return .balanceChanged(Money(amountMinor: event.balance.amountMinor, currency: event.balance.currency))
        case .notificationsChanged(let event):
            return .unreadChanged(event.unreadNotifications)
        case .cardChanged:
            return .cardChanged
        case .sessionLocked:
            return .sessionLocked
        case .sessionRevoked:
            return .sessionRevoked
        }
    }
}
