import Foundation
import Logging
import PostgresNIO
import Synchronization

/// No server of the database URL takes this instance's requests now (the primary died and no standby is promoted
/// yet, or it is being checked): nothing was done, or a write's outcome is unknown. Answered as 503
/// `database-unavailable` with `Retry-After`; the same request sent again with the same Idempotency-Key is done at
/// most once, whichever it was.
struct DatabaseUnavailable: Error, Sendable {}

/// The server of a (multi-host) database URL that the pool talks to, followed through a failover
/// (docs/decisions/0199-postgres-failover.md).
///
/// One `PostgresClient` (a pool) at a time, on the host `PostgresHosts.choose` picked. A watcher asks that host
/// every half second, on a connection of its own, whether it still fits `target_session_attrs` (a primary that died
/// while nobody asked anything would otherwise keep requests waiting on the pool's connection attempts for a
/// minute); a request that meets a lost connection or a read-only server asks it at once. When the host no longer
/// fits, its pool is shut down (requests waiting on it end), requests answer `DatabaseUnavailable` at once, and the
/// watcher tries every host of the URL in turn until one fits: a new pool is opened there.
final class PostgresPrimary: Sendable {
    /// One pool on one host; `generation` counts the pools opened, so a loss met on an old pool is not taken for
    /// the new one's.
    struct Pool: Sendable {
        let client: PostgresClient
        let endpoint: PostgresURL
        let generation: Int
        /// Its largest number of connections.
        let capacity: Int
        fileprivate let running: Task<Void, Never>
    }

    private enum State {
        case serving(Pool)
        /// No host fits since `since`; `generation` is the last pool's.
        case searching(since: ContinuousClock.Instant, generation: Int)
        case closed
    }

    /// How often the watcher asks.
    static let checkInterval = Duration.milliseconds(500)
    /// How long a check may take (a connect, or the question on a held connection) before it counts as unanswered.
    static let checkTimeout = Duration.seconds(2)
    /// How many checks in a row may go unanswered before the host counts as lost. A host that refuses, closes or
    /// answers that it no longer fits is lost at once; a slow answer may be this machine's load, not the host's (a
    /// CI run starting every test at once on two cores took past 2 s, and one check retired a healthy pool under a
    /// migration), so a silent host is given up after about 7 s.
    static let unansweredChecksBeforeLost = 3

    let hosts: PostgresHosts
    let logger: Logger
    /// Each pool's largest number of connections.
    let capacity: Int
    private let state: Mutex<State>
    private let wake: AsyncStream<Void>.Continuation
    private let watcher: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Connects to the host of `hosts` that fits (`PostgresHosts.choose`: a start where none does fails with every
    /// host's answer) and opens the pool there.
    static func open(_ hosts: PostgresHosts, logger: Logger) async throws -> PostgresPrimary {
        let endpoint = try await hosts.choose(logger: logger)
        return PostgresPrimary(hosts: hosts, first: endpoint, logger: logger)
    }

    private init(hosts: PostgresHosts, first endpoint: PostgresURL, logger: Logger) {
        self.hosts = hosts
        self.logger = logger
        let pool = Self.makePool(endpoint, generation: 1, logger: logger)
        capacity = pool.capacity
        state = Mutex(.serving(pool))
        let (signals, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        watcher.withLock { task in
            task = Task { [weak self] in await self?.watch(signals) }
        }
    }

    private static func makePool(_ endpoint: PostgresURL, generation: Int, logger: Logger) -> Pool {
        let configuration = endpoint.clientConfiguration
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return Pool(
            client: client, endpoint: endpoint, generation: generation, capacity: configuration.options.maximumConnections,
            running: Task.immediate { await client.run() }
        )
    }

    /// The pool to use now; `DatabaseUnavailable` while no host fits.
    func pool() throws(DatabaseUnavailable) -> Pool {
        try state.withLock { state throws(DatabaseUnavailable) in
            guard case .serving(let pool) = state else { throw DatabaseUnavailable() }
            return pool
        }
    }

    /// `error`, met by a request on `pool`, as the request should throw it: a lost connection, a read-only server
    /// or a pool shut down by a failover is `DatabaseUnavailable` (and the host is checked at once); any other
    /// error is itself.
    func settle(_ error: any Error, from pool: Pool) -> any Error {
        guard Self.meansLost(error) else { return error }
        logger.warning("a database request met a lost connection; checking the host", metadata: [
            "host": "\(pool.endpoint.host):\(pool.endpoint.port)", "error": "\(Self.summary(error))",
        ])
        wake.yield()
        return DatabaseUnavailable()
    }

    /// True for an error that says the server is gone or no longer fits: the connection closed or failed, the
    /// server shutting down or starting (SQLSTATE 57P01–57P03), a connection exception (class 08), a write on a
    /// read-only server (25006: a primary demoted to a standby), the pool closed under the request, the pool
    /// unable to connect for a minute, or this store's own `DatabaseUnavailable` and `NoAnswer`.
    static func meansLost(_ error: any Error) -> Bool {
        // Said by this store itself: a connection found closed, or a question not answered within its bound.
        if error is DatabaseUnavailable || error is PostgresHosts.NoAnswer { return true }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
                return true
            case .server:
                let state = psql.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || ["25006", "57P01", "57P02", "57P03"].contains(state)
            default:
                return false
            }
        }
        // The pool's own error type is in a module PostgresNIO does not export; the only one it lets through to a
        // lease is the breaker that trips after a minute without a connection.
        return String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError")
    }

    private static func summary(_ error: any Error) -> String {
        guard let psql = error as? PSQLError else { return String(reflecting: type(of: error)) }
        return psql.serverInfo?[.sqlState].map { "SQLSTATE \($0)" } ?? "\(psql.code)"
    }

    /// Shuts the pool down and stops watching.
    func close() async {
        let pool: Pool? = state.withLock { state in
            defer { state = .closed }
            if case .serving(let pool) = state { return pool }
            return nil
        }
        wake.finish()
        let watching = watcher.withLock { $0 }
        watching?.cancel()
        await watching?.value
        if let pool {
            pool.running.cancel()
            // The pool ends once every connection is given back; one held by a question PostgresNIO never answers
            // (asked on a connection that had just closed) would keep it, and a stopping server, waiting for ever.
            _ = try? await FirstOutcome.within(.seconds(5)) { await pool.running.value }
        }
    }

    // MARK: - The watcher

    /// Checks on each signal (a request's loss, or the half-second tick) until closed.
    private func watch(_ signals: AsyncStream<Void>) async {
        let ticks = Task { [wake] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.checkInterval)
                wake.yield()
            }
        }
        defer { ticks.cancel() }
        var probe = Probe()
        var unanswered = 0
        for await _ in signals {
            let current = state.withLock { state -> State in state }
            switch current {
            case .closed:
                await probe.close()
                return
            case .serving(let pool):
                switch await probe.check(pool.endpoint, target: hosts.target, logger: logger) {
                case .fits:
                    unanswered = 0
                    continue
                case .unanswered:
                    unanswered += 1
                    if unanswered < Self.unansweredChecksBeforeLost { continue }
                case .lost:
                    break
                }
                unanswered = 0
                await retire(pool)
            case .searching(let since, let generation):
                guard let endpoint = try? await hosts.choose(logger: logger, connectTimeout: Self.checkTimeout) else { continue }
                let pool = Self.makePool(endpoint, generation: generation + 1, logger: logger)
                let opened = state.withLock { state -> Bool in
                    guard case .searching = state else { return false }
                    state = .serving(pool)
                    return true
                }
                guard opened else {
                    pool.running.cancel()
                    continue
                }
                logger.notice("following the database: a new pool is open", metadata: [
                    "host": "\(endpoint.host):\(endpoint.port)", "secondsWithoutDatabase": "\(Self.seconds(since: since))",
                ])
            }
        }
        await probe.close()
    }

    /// Stops using `pool`: requests answer `DatabaseUnavailable` from now, and those waiting on it end.
    private func retire(_ pool: Pool) async {
        let retired = state.withLock { state -> Bool in
            guard case .serving(let current) = state, current.generation == pool.generation else { return false }
            state = .searching(since: .now, generation: pool.generation)
            return true
        }
        guard retired else { return }
        logger.error("the database host no longer answers as target_session_attrs asks; searching the URL's hosts", metadata: [
            "host": "\(pool.endpoint.host):\(pool.endpoint.port)", "target_session_attrs": "\(hosts.target.rawValue)",
        ])
        pool.running.cancel()
        wake.yield()
    }

    private static func seconds(since instant: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - instant
        return String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The watcher's own connection to the host in use, made again when lost or when the host changes.
    private struct Probe {
        private var connection: PostgresConnection?
        private var host: (String, Int)?

        enum Outcome { case fits, unanswered, lost }

        /// Whether `endpoint` answers within `checkTimeout` (a connect and the question, or the question on the held
        /// connection) and still fits `target`: `unanswered` when it said nothing in time, `lost` when it refused,
        /// closed or no longer fits.
        mutating func check(_ endpoint: PostgresURL, target: PostgresHosts.TargetSessionAttributes, logger: Logger) async -> Outcome {
            if let host, host != (endpoint.host, endpoint.port) { await close() }
            do {
                let connection: PostgresConnection
                if let held = self.connection, !held.isClosed {
                    connection = held
                } else {
                    connection = try await endpoint.connect(logger: logger, connectTimeout: PostgresPrimary.checkTimeout)
                    self.connection = connection
                    host = (endpoint.host, endpoint.port)
                }
                let role = try await PostgresHosts.role(of: connection, logger: logger, timeout: PostgresPrimary.checkTimeout)
                return PostgresHosts.pick([role], for: target) != nil ? .fits : .lost
            } catch {
                await close()
                return error is PostgresHosts.NoAnswer ? .unanswered : .lost
            }
        }

        mutating func close() async {
            try? await connection?.close()
            connection = nil
            host = nil
        }
    }
}
