import Foundation
import Logging

/// Everything a Skiff server needs to start; `skiff-server serve` and the app's embedded server both build one.
public struct SkiffServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port; 0 picks a free one (the bound port is reported once the server runs).
    public var port: Int
    /// The SQLite file (WAL mode; `-wal` and `-shm` files sit beside it).
    public var databasePath: String
    /// Where `SMSOutboxCodeSender` appends one JSON line per code sent. Ignored when `codeSender` is set.
    public var smsOutboxPath: String
    /// Where the server key is generated once (`server.key`, mode 0600) when `fingerprintKey` is nil.
    public var dataDirectory: String
    /// The server key as base64 of ≥ 32 bytes; nil to use (or create) `server.key` in `dataDirectory`.
    public var fingerprintKey: String?
    /// The bcrypt cost; 12 in production, 4 in tests.
    public var bcryptCost: UInt8
    /// Seeds the demo account (`DemoCredentials.demo`) when the database has no user.
    public var seedDemoDataIfEmpty: Bool
    /// Where the server logs. The terminal app routes it to a file; the server never prints on its own.
    public var logger: Logger
    /// The source of time for every expiry, idle timeout and throttle.
    public var clock: any ServerClock
    /// Sends one-time codes; nil uses an `SMSOutboxCodeSender` at `smsOutboxPath`.
    public var codeSender: (any CodeSender)?
    /// The rules for sessions, codes, throttling and idempotency.
    public var limits: SkiffServerLimits

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        databasePath: String,
        smsOutboxPath: String,
        dataDirectory: String? = nil,
        fingerprintKey: String? = nil,
        bcryptCost: UInt8 = 12,
        seedDemoDataIfEmpty: Bool = true,
        logger: Logger = Logger(label: "skiff-server"),
        clock: any ServerClock = SystemClock(),
        codeSender: (any CodeSender)? = nil,
        limits: SkiffServerLimits = SkiffServerLimits()
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.smsOutboxPath = smsOutboxPath
        self.dataDirectory = dataDirectory ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        self.fingerprintKey = fingerprintKey
        self.bcryptCost = bcryptCost
        self.seedDemoDataIfEmpty = seedDemoDataIfEmpty
        self.logger = logger
        self.clock = clock
        self.codeSender = codeSender
        self.limits = limits
    }

    /// `$XDG_DATA_HOME/skiff`, else `~/.local/share/skiff`.
    public static var defaultDataDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("skiff")
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/skiff")
    }

    /// `skiff.sqlite` in the default data directory.
    public static var defaultDatabasePath: String {
        defaultDataDirectory.appendingPathComponent("skiff.sqlite").path
    }

    /// `sms-outbox.jsonl` in the default data directory.
    public static var defaultSMSOutboxPath: String {
        defaultDataDirectory.appendingPathComponent("sms-outbox.jsonl").path
    }
}
