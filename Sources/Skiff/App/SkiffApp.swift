import Foundation
import Logging
import SkiffCore
import TerminalUI

/// Passes a 401 or a 423 seen on any thread to the app coordinator, as tracked work on the main actor.
@MainActor
final class SessionExpiryRelay {
    weak var coordinator: AppCoordinator?
    weak var application: Application?

    nonisolated func fire() {
        Task { @MainActor in
            self.application?.task { [weak self] in self?.coordinator?.sessionDidExpire() }
        }
    }

    nonisolated func fireLocked() {
        Task { @MainActor in
            self.application?.task { [weak self] in self?.coordinator?.sessionDidLock() }
        }
    }
}

/// Wires the live workers and stores, the navigation controller and the app coordinator onto a terminal.
@MainActor
public final class SkiffApp {
    let application: Application
    let coordinator: AppCoordinator
    /// The live workers' client (nil with worker doubles); `run()` closes it when the app ends.
    let api: APIClient?
    /// The live event stream's client: its reads wait out the server's keep-alive interval.
    private let eventsAPI: APIClient?
    /// The live Home cache, opened after the first frame (nil with worker doubles).
    private let deferredCache: DeferredCacheStore?
    private var cacheOpening: Task<Void, Never>?

    /// Builds the app on `terminal` from ready dependencies (tests pass doubles and a headless terminal).
    init(terminal: any Terminal, dependencies: AppDependencies, environment: [String: String], idleLock: IdleLockSettings? = nil) {
        let navigation = NavigationController()
        application = Application(terminal: terminal, rootViewController: navigation, environment: environment)
        coordinator = AppCoordinator(
            navigation: navigation, dependencies: dependencies, tasks: application.tasks, idleLock: idleLock
        )
        api = nil
        eventsAPI = nil
        deferredCache = nil
        Self.configure(application, coordinator: coordinator, privacy: dependencies.formatting.privacy)
    }

    /// Builds the app against a real server: HTTP workers, the session file, preferences and the GRDB cache (opened
    /// once the first frame is out: `DeferredCacheStore`).
    public init(terminal: any Terminal, configuration: SkiffAppConfiguration, environment: [String: String], logger: Logger) throws {
        let paths = configuration.paths
        let cache = DeferredCacheStore(logger: logger) { try CacheStore(file: paths.cacheDatabase, logger: logger) }
        let relay = SessionExpiryRelay()
        let tokens = SessionTokenBox()
        let api = APIClient(
            endpoint: configuration.server, trust: configuration.trust, tokens: tokens, timeout: configuration.requestTimeout,
            onUnauthorised: { relay.fire() }, onLocked: { relay.fireLocked() }
        )
        let eventsAPI = APIClient(
            endpoint: configuration.server, trust: configuration.trust, tokens: tokens, timeout: Self.eventStreamReadTimeout,
            onUnauthorised: { relay.fire() }, onLocked: { relay.fireLocked() }
        )
        let dependencies = AppDependencies(
            auth: AuthWorker(api: api), account: AccountWorker(api: api), cards: CardWorker(api: api),
            notifications: NotificationsWorker(api: api), transfers: TransferWorker(api: api),
            sessions: SessionStore(file: paths.sessionFile, logger: logger),
            preferences: PreferencesStore(file: paths.preferencesFile, logger: logger),
            cache: cache,
            outbox: configuration.isEmbeddedServer ? DevelopmentOutbox(file: paths.smsOutbox) : nil,
            tokens: tokens,
            demo: configuration.isEmbeddedServer ? DemoCredentials.demo : nil,
            serverDescription: Self.describeServer(configuration),
            formatting: Formatting(privacy: DisplayPrivacy()),
            keys: configuration.keys,
            liveEvents: LiveEventsWorker(api: eventsAPI)
        )
        let navigation = NavigationController()
        application = Application(
            terminal: terminal, rootViewController: navigation, themeChoice: configuration.theme, environment: environment
        )
        coordinator = AppCoordinator(
            navigation: navigation, dependencies: dependencies, tasks: application.tasks,
            idleLock: configuration.lockAfter.map { IdleLockSettings(after: $0, clock: LiveIdleClock()) }
        )
        relay.coordinator = coordinator
        relay.application = application
        self.api = api
        self.eventsAPI = eventsAPI
        deferredCache = cache
        Self.configure(application, coordinator: coordinator, privacy: dependencies.formatting.privacy)
    }

    /// Three of the server's 30 s keep-alive intervals without a byte: the connection is taken for lost.
    static let eventStreamReadTimeout: Duration = .seconds(90)

    /// What Launch says it connects to: the server's address, or the built-in server (with its port once known).
    private static func describeServer(_ configuration: SkiffAppConfiguration) -> String {
        guard let url = configuration.server.knownURL else { return "the built-in server" }
        guard configuration.isEmbeddedServer else { return url.redactedForLog }
        return "the built-in server at \(url.host ?? "127.0.0.1"):\(url.port ?? 0)"
    }

    /// `q` quits only where a screen offers it (Home); on forms it is a letter like any other. Every key restarts
    /// the idle lock's count; amounts blur while the terminal window is not focused.
    private static func configure(_ application: Application, coordinator: AppCoordinator, privacy: DisplayPrivacy?) {
        application.quitKey = nil
        application.onKeyPress = { [weak coordinator] _ in coordinator?.userDidType() }
        if let privacy {
            application.onFocusChange = { focused in privacy.isBlurred = !focused }
        }
    }

    /// Shows the first screen and runs until the person quits; returns the exit status. `afterFirstFrame` is called
    /// once the first screen is on the terminal, when the Home cache starts opening too (off the main actor).
    public func run(afterFirstFrame: (@MainActor () -> Void)? = nil) async throws -> Int32 {
        application.onFirstFrame = { [weak self] in
            afterFirstFrame?()
            if let cache = self?.deferredCache {
                self?.cacheOpening = Task.detached { cache.open() }
            }
        }
        coordinator.start()
        let status: Int32
        do {
            status = try await application.run()
        } catch {
            await cacheOpening?.value
            await api?.shutdown()
            await eventsAPI?.shutdown()
            throw error
        }
        // A quit right after the first frame still lets the cache finish opening (or setting a damaged file aside),
        // and Home's last snapshot is written before the process ends.
        await cacheOpening?.value
        if let cache = deferredCache { await Task.detached { cache.flush() }.value }
        await api?.shutdown()
        await eventsAPI?.shutdown()
        return status
    }
}
