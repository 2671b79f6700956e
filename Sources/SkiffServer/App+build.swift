import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import HummingbirdTLS
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle
import SkiffAPI
import SkiffCore
import SkiffPasswords

/// Builds the Skiff server: refuses plain HTTP, the demo account or the SMS outbox off loopback (`checkExposure`, and
/// a database holding the demo account once it is open), loads the TLS files, opens (and migrates) the database,
/// seeds the demo account on an empty one, and wires the routes.
/// `onServerRunning` receives the bound port, which matters when `port` is 0.
public func buildApplication(
    _ configuration: SkiffServerConfiguration,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let logger = configuration.logger
    if let warning = try configuration.checkExposure() {
        logger.warning("\(warning)")
    }
    for warning in configuration.startWarnings { logger.warning("\(warning)") }
    let limits = configuration.limits
    let connections = ConnectionsPerAddress(
        limit: limits.connectionsPerAddress, exempt: Set(configuration.trustedProxies.compactMap(ClientAddress.normalized)),
        logger: logger
    )
    let http1 = HTTPServerBuilder.http1(configuration: .init(
        additionalChannelHandlers: [connections.handler(), RequestReadTimeoutHandler(limits: limits), EventStreamClientGoneHandler()],
        idleTimeout: .timeInterval(limits.connectionIdleTimeout)
    ))
    let httpServer = try configuration.tls.map { try .tls(http1, tlsConfiguration: $0.serverConfiguration()) } ?? http1
    let scheme = configuration.tls == nil ? "http" : "https"
    let server = try await SkiffServerComponents(configuration)
    let router = try server.buildRouter()
    // Stopped in reverse order, after the server has finished its requests: the metrics listener, the purge, event
    // delivery, and last the store.
    var services: [any Service] = [
        RepositoryStoreService(store: server.store),
        EventDeliveryService(store: server.store, hub: server.events.hub, sessions: server.sessions.cache),
        PurgeService(store: server.store, clock: configuration.clock, limits: configuration.limits, logger: logger),
    ]
    if let endpoint = configuration.metrics {
        services.append(server.metricsApplication(endpoint))
    }
    return Application(
        router: router,
        server: httpServer,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "skiff-server",
            availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)
        ),
        services: services,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.info("skiff-server listening", metadata: ["scheme": "\(scheme)", "host": "\(configuration.host)", "port": "\(port)"])
            await onServerRunning(port)
        },
        logger: logger
    )
}

/// Keeps the database open while the server runs and closes it after the server has stopped serving.
struct RepositoryStoreService: Service {
    let store: any RepositoryStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}

/// Rings the event streams of this process when their users' events commit (decision 0156), and empties the session
/// cache of them (decision 0203), until the server stops.
struct EventDeliveryService: Service {
    let store: any RepositoryStore
    let hub: EventHub
    let sessions: SessionCache

    func run() async throws {
        let store = store, hub = hub, sessions = sessions
        await cancelWhenGracefulShutdown { await store.deliverEvents(to: hub, sessions: sessions) }
        sessions.setLive(false)
        hub.close()
    }
}

/// The parts of a running server, built once from a configuration.
struct SkiffServerComponents: Sendable {
    let configuration: SkiffServerConfiguration
    let store: any RepositoryStore
    let repositories: Repositories
    let key: ServerKey
    let sessions: SessionService
    let auth: AuthService
    let cards: CardService
    let topUps: TopUpService
    let authRequests: AuthRequestBuckets
    let events: EventStreams
    let metrics = ServerMetrics()

    init(_ configuration: SkiffServerConfiguration) async throws {
        self.configuration = configuration
        let logger = configuration.logger
        let clock = configuration.clock
        let limits = configuration.limits
        key = try ServerKey.load(for: configuration)
        let passwords = PasswordService(cost: configuration.bcryptCost, commonPasswords: try CommonPasswords.load())
        let outbox = SMSOutboxCodeSender(path: configuration.smsOutboxPath)
        if configuration.codeSender == nil { try outbox.checkFile() }
        store = try await openRepositoryStore(configuration.database, logger: logger, migrations: configuration.migrations)
        repositories = store.repositories
        let codes = OneTimeCodeService(
            repository: repositories.verifications,
            sender: configuration.codeSender ?? outbox,
            key: key, clock: clock, limits: limits, logger: logger
        )
        sessions = SessionService(repository: repositories.sessions, clock: clock, limits: limits)
        authRequests = AuthRequestBuckets(limits: limits, clock: clock)
        events = EventStreams(
            hub: EventHub(
                perUser: limits.eventStreamsPerUser, perServer: limits.eventStreamsPerServer,
                perAddress: limits.eventStreamsPerAddress
            ),
            settings: .init(events: repositories.events, sessions: sessions, clock: clock, limits: limits)
        )
        auth = AuthService(
            accounts: repositories.accounts, sessions: sessions, stepUps: repositories.ledger,
            throttle: LoginThrottle(repository: repositories.loginThrottle, clock: clock, limits: limits),
            codes: codes, passwords: passwords, key: key, clock: clock, limits: limits, logger: logger
        )
        let network = try configuration.cardNetworkOverride ?? Self.cardNetwork(configuration, key: key)
        let customers = NetworkCustomers(cards: repositories.cards, network: network)
        cards = CardService(
            cards: repositories.cards, accounts: repositories.accounts, notifications: repositories.notifications,
            codes: codes, network: network, customers: customers, clock: clock, logger: logger
        )
        topUps = TopUpService(
            accounts: repositories.accounts, cards: repositories.cards, topUps: repositories.topUps, network: network,
            customers: customers, clock: clock, limits: limits, logger: logger
        )
        do {
            // The rule of `checkExposure`, for a database that got the demo account elsewhere (`seed-demo`, the app's
            // built-in server, an earlier loopback `serve --demo`): it can only be seen once the database is open.
            if !LoopbackAddress.isLoopback(host: configuration.host), try await DemoData.isPresent(in: repositories) {
                let demo = DemoCredentials.demo
                throw SkiffServerConfiguration.ExposureRefusal(description: "The database \(configuration.database) holds "
                    + "the demo account (\(demo.countryCode) \(demo.phoneNumber)), whose password is published, so it is "
                    + "not served on --host \(configuration.host), which is not loopback. Serve another --database, or "
                    + "listen on 127.0.0.1.")
            }
            if configuration.seedDemoDataIfEmpty, try await store.isEmpty() {
                try await DemoData.seed(repositories: repositories, passwords: passwords, key: key, clock: clock, limits: limits)
                logger.info("seeded the demo account")
            }
        } catch {
            await store.close()
            throw error
        }
    }

    /// The card network `configuration` names, its secrets read from their owner-only files.
    private static func cardNetwork(_ configuration: SkiffServerConfiguration, key: ServerKey) throws -> any CardNetwork {
        switch configuration.cardNetwork {
        case .simulated:
            return SimulatedCardNetwork(key: key, latency: configuration.simulatedCardNetworkLatency)
        case .stripe(let stripe):
            return StripeCardNetwork(settings: .init(
                apiURL: stripe.apiURL, secretKey: try OwnerOnlyFile.firstLine(of: stripe.secretKeyFile, "The Stripe secret key file"),
                publishableKey: stripe.publishableKey,
                webhookSecret: try stripe.webhookSecretFile.map { try OwnerOnlyFile.firstLine(of: $0, "The Stripe webhook secret file") }
            ), logger: configuration.logger)
        }
    }

    /// The routes of the contract behind the problem, request-target (plain path, no NUL), size-limit, method,
    /// client-address, auth rate-limit, JSON text (no NUL, no repeated key), authentication and idempotency middleware, and the contract itself at `/openapi.yaml`.
    func buildRouter() throws -> Router<SkiffRequestContext> {
        let router = Router(context: SkiffRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: NoStoreMiddleware())
        router.add(middleware: ProblemMiddleware(logger: configuration.logger))
        router.add(middleware: RequestTargetMiddleware())
        router.add(middleware: RequestSizeLimitMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware())
        let trustedProxies = Set(configuration.trustedProxies.compactMap(ClientAddress.normalized))
        router.add(middleware: ClientAddressMiddleware(trustedProxies: trustedProxies))
        router.add(middleware: AuthRequestLimitMiddleware(buckets: authRequests))
        router.add(middleware: JSONTextMiddleware())
        router.get("/health") { _, _ in HTTPResponse.Status.ok }
        // For an orchestrator: live while the process answers; ready while its database answers and has every
        // migration this binary knows (a newer binary beside an older schema is not ready until `migrate` ran).
        router.get("/health/live") { _, _ in HTTPResponse.Status.ok }
        let store = self.store
        router.get("/health/ready") { _, _ in
            let (status, text): (HTTPResponse.Status, String)
            do {
                let pending = try await store.pendingMigrations()
                (status, text) = pending.isEmpty
                    ? (.ok, "ready\n")
                    : (.serviceUnavailable, "not ready: the database lacks \(pending.count) migration(s); run skiff-server migrate\n")
            } catch {
                (status, text) = (.serviceUnavailable, "not ready: the database does not answer\n")
            }
            return Response(
                status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text))
            )
        }
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: SkiffContract.document))
            )
        }
        // The card network's own routes, outside the contract: its webhook (the signature is over the body's bytes as
        // sent), and the simulated network's tokenization and confirmation (loopback only).
        let topUps = self.topUps
        router.post("/v1/webhooks/stripe") { request, _ in
            let body = try await request.body.collect(upTo: 256 * 1024)
            try await topUps.receiveWebhook(body: Array(buffer: body), signature: request.headers[values: .stripeSignature].first)
            return HTTPResponse.Status.ok
        }
        if let simulated = cards.network as? SimulatedCardNetwork {
            SimulatedCardNetworkRoutes.add(to: router, network: simulated)
        }
        let handler = SkiffAPIHandler(
            auth: auth,
            accounts: AccountService(accounts: repositories.accounts),
            transactions: TransactionService(transactions: repositories.transactions),
            spending: SpendingService(transactions: repositories.transactions, clock: configuration.clock),
            notifications: NotificationService(notifications: repositories.notifications, clock: configuration.clock),
            cardService: cards,
            transfers: TransferService(
                accounts: repositories.accounts, ledger: repositories.ledger, rateWindows: repositories.rateWindows,
                clock: configuration.clock, limits: configuration.limits, logger: configuration.logger
            ),
            topUps: topUps, events: events
        )
        try handler.registerHandlers(
            on: router,
            configuration: .init(dateTranscoder: InternetDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
            middlewares: [
                OperationObservationMiddleware(),
                AuthenticationMiddleware(sessions: sessions),
                IdempotencyMiddleware(
                    repository: repositories.idempotency, key: key, clock: configuration.clock,
                    retention: configuration.limits.idempotencyRetention, logger: configuration.logger
                ),
                LocationHeaderMiddleware(),
            ]
        )
        return router
    }
}

extension SkiffServerComponents {
    /// `GET /metrics` on a listener of its own (`--metrics-port`), so that the API's port never answers it and a
    /// firewall or a loopback address keeps it to the operator.
    func metricsApplication(_ endpoint: SkiffServerConfiguration.MetricsEndpoint) -> some Service {
        let router = Router()
        let (metrics, store, sessions, hub, logger) = (metrics, store, sessions, events.hub, configuration.logger)
        router.get("/metrics") { _, _ in
            // A database that does not answer leaves the sessions gauge as last read; the rest is this process's own.
            let active = try? await sessions.activeCount()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(
                    database: store.usage, activeSessions: active, eventStreams: hub.openStreams
                )))
            )
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: "skiff-server-metrics"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? endpoint.port
                logger.info("skiff-server metrics listening", metadata: ["host": "\(endpoint.host)", "port": "\(port)"])
            },
            logger: logger
        )
    }
}

/// Runs `app` until SIGTERM or SIGINT, then shuts it down gracefully: no new connections, the requests in flight
/// finish within `limits.shutdownGracePeriod`, and whatever still runs after it is cancelled.
public func runUntilSignalled(_ app: some ApplicationProtocol, limits: SkiffServerLimits, logger: Logger) async throws {
    try await makeServiceGroup(app, limits: limits, stopsOnSignals: true, logger: logger).run()
}

/// The group a server runs in, alone or inside the wallet (`SkiffServerInstance`, whose host process owns the
/// signals): a graceful shutdown (on SIGTERM or SIGINT when `stopsOnSignals`, or triggered) lets the requests in
/// flight finish within `limits.shutdownGracePeriod`, then cancels what still runs, so a stop never waits for ever.
func makeServiceGroup(
    _ app: some ApplicationProtocol, limits: SkiffServerLimits, stopsOnSignals: Bool, logger: Logger
) -> ServiceGroup {
    var configuration = ServiceGroupConfiguration(
        services: [.init(service: app)], gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [], logger: logger
    )
    configuration.maximumGracefulShutdownDuration = limits.shutdownGracePeriod
    return ServiceGroup(configuration: configuration)
}


extension HTTPField.Name {
    /// Stripe's webhook signature: `t=<time>,v1=<HMAC-SHA256>`.
    static let stripeSignature = Self("Stripe-Signature")!
}
