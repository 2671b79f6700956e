import Foundation
import TerminalUI

/// How the app is started: which server, where files go, and whether that server is the app's own.
public struct SkiffAppConfiguration: Sendable {
    var server: ServerEndpoint
    var paths: AppPaths
    /// True when the app started its own server: show the demo credentials and read codes from its outbox.
    var isEmbeddedServer: Bool
    /// The authorities an `https://` server's certificate is checked against.
    var trust: ServerTrust
    /// How long any request may take before the app gives up on it and says the server is slow.
    var requestTimeout: Duration
    /// The request timeout unless one is given: 10 s.
    public static let defaultRequestTimeout: Duration = .seconds(10)
    /// How long without a key before the app locks itself; nil never locks.
    var lockAfter: Duration?
    /// The app's key map: the standard one with config.toml's `[keys]` overrides.
    var keys: WalletKeys = .standard
    /// The palette asked for (`--theme`, config.toml's `theme`).
    var theme: ThemeChoice = .auto

    public init(
        serverURL: URL, paths: AppPaths, isEmbeddedServer: Bool, trust: ServerTrust = .system,
        requestTimeout: Duration = SkiffAppConfiguration.defaultRequestTimeout, lockAfter: Duration? = .seconds(300)
    ) {
        self.init(
            server: ServerEndpoint(url: serverURL), paths: paths, isEmbeddedServer: isEmbeddedServer, trust: trust,
            requestTimeout: requestTimeout, lockAfter: lockAfter
        )
    }

    /// The app against `server`, which may still be starting (the built-in one starts behind the first screen),
    /// with the keys `settings` configured (config.toml's `[keys]`).
    public init(
        server: ServerEndpoint, paths: AppPaths, isEmbeddedServer: Bool, trust: ServerTrust = .system,
        requestTimeout: Duration = SkiffAppConfiguration.defaultRequestTimeout, lockAfter: Duration? = .seconds(300),
        settings: CommandLineOptions? = nil
    ) {
        self.keys = settings?.keys ?? .standard
        self.theme = settings?.theme ?? .auto
        self.server = server
        self.paths = paths
        self.isEmbeddedServer = isEmbeddedServer
        self.trust = trust
        self.requestTimeout = requestTimeout
        self.lockAfter = lockAfter
    }
}
