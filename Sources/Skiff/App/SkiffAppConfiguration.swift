import Foundation

/// How the app is started: which server, where files go, and whether that server is the app's own.
public struct SkiffAppConfiguration: Sendable {
    var serverURL: URL
    var paths: AppPaths
    /// True when the app started its own server: show the demo credentials and read codes from its outbox.
    var isEmbeddedServer: Bool
    /// The authorities an `https://` server's certificate is checked against.
    var trust: ServerTrust
    /// How long without a key before the app locks itself; nil never locks.
    var lockAfter: Duration?

    public init(
        serverURL: URL, paths: AppPaths, isEmbeddedServer: Bool, trust: ServerTrust = .system,
        lockAfter: Duration? = .seconds(300)
    ) {
        self.serverURL = serverURL
        self.paths = paths
        self.isEmbeddedServer = isEmbeddedServer
        self.trust = trust
        self.lockAfter = lockAfter
    }
}
