import Foundation
import Logging

/// Everything a Skiff server needs to start; `skiff-server serve` and the app's embedded server both build one.
public struct SkiffServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port; 0 picks a free one (the bound port is reported once the server runs).
    public var port: Int
    /// The certificate and key to speak TLS with; nil serves plain HTTP, which only loopback allows by default.
    var tls: TLSFiles?
    /// Serves plain HTTP on a non-loopback `host` (behind a TLS proxy), with a warning at every start.
    var allowsInsecureHTTP: Bool
    /// The SQLite file (WAL mode; `-wal` and `-shm` files sit beside it) or the PostgreSQL database.
    public var database: DatabaseLocation
    /// Where `SMSOutboxCodeSender` appends one JSON line per code sent. Ignored when `codeSender` is set.
    var smsOutboxPath: String
    /// Uses the SMS outbox on a non-loopback `host` (`--sms-outbox-off-loopback`); without it such a server
    /// refuses to start, since the outbox is a development channel that keeps every code in clear.
    public var allowsSMSOutboxOffLoopback = false
    /// Where the server key is generated once (`server.key`, mode 0600) when no key is given, on SQLite only.
    public var dataDirectory: String
    /// The server key as base64 of ≥ 32 bytes (`SKIFF_FINGERPRINT_KEY`).
    var fingerprintKey: String?
    /// A file holding the server key as base64 of ≥ 32 bytes (`--key-file`); at most one of the two is set.
    /// On PostgreSQL one of them is required, so that every instance uses the same key.
    var keyFile: String?
    /// The bcrypt cost; 12 in production, 4 in tests.
    var bcryptCost: UInt8
    /// Seeds the demo account (`DemoCredentials.demo`) when the database has no user; loopback `host` only.
    var seedDemoDataIfEmpty: Bool
    /// Where the server logs. The terminal app routes it to a file; the server never prints on its own.
    public var logger: Logger
    /// The source of time for every expiry, idle timeout and throttle.
    public var clock: any ServerClock
    /// Sends one-time codes; nil uses an `SMSOutboxCodeSender` at `smsOutboxPath`.
    var codeSender: (any CodeSender)?
    /// The rules for sessions, codes, throttling and idempotency.
    public var limits: SkiffServerLimits
    /// The card network cards are added and top-ups charged through (`--card-network`): the simulated one by
    /// default, which `checkExposure` refuses off loopback.
    public var cardNetwork: CardNetworkSetting = .simulated
    /// A network tests set in place of `cardNetwork`'s.
    var cardNetworkOverride: (any CardNetwork)?
    /// How long the simulated network takes to answer a charge or an attach, as a real one would.
    var simulatedCardNetworkLatency: Duration = .milliseconds(150)
    /// Proxies (IP addresses) whose `X-Forwarded-For` names the client; none by default, so the direct peer is the
    /// client (`ClientAddress`). Entries that are not IP addresses are ignored; `skiff-server` refuses them.
    public var trustedProxies: [String] = []
    /// Whether the database is migrated at start (`serve`) or must be current already (`serve --no-migrate`).
    public var migrations: MigrationPolicy = .apply
    /// Where `GET /metrics` is served, on a listener of its own; nil serves no metrics.
    public var metrics: MetricsEndpoint?
    /// Said at every start, as warnings: choices the operator made that weaken the server (metrics off loopback).
    public var startWarnings: [String] = []

    /// The address of the metrics listener (`--metrics-port`, `--metrics-host`).
    public struct MetricsEndpoint: Sendable, Equatable {
        /// Loopback unless the operator says otherwise: the counts say how busy the service is and who is refused.
        public var host: String
        /// 0 picks a free port (logged as "skiff-server metrics listening").
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// A server on `database`; without `dataDirectory`, the SQLite file's folder or else `defaultDataDirectory`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        tls: TLSFiles? = nil,
        allowsInsecureHTTP: Bool = false,
        database: DatabaseLocation,
        smsOutboxPath: String,
        dataDirectory: String? = nil,
        fingerprintKey: String? = nil,
        keyFile: String? = nil,
        bcryptCost: UInt8 = 12,
        seedDemoDataIfEmpty: Bool = true,
        logger: Logger = Logger(label: "skiff-server"),
        clock: any ServerClock = SystemClock(),
        codeSender: (any CodeSender)? = nil,
        limits: SkiffServerLimits = SkiffServerLimits()
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.database = database
        self.smsOutboxPath = smsOutboxPath
        self.dataDirectory = dataDirectory ?? {
            switch database {
            case .sqlite(let path): URL(fileURLWithPath: path).deletingLastPathComponent().path
            case .postgres: Self.defaultDataDirectory.path
            }
        }()
        self.fingerprintKey = fingerprintKey
        self.keyFile = keyFile
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

/// Which card network a server uses, and how to reach it.
public enum CardNetworkSetting: Sendable {
    /// `SimulatedCardNetwork`: Stripe's test cards imitated in the server, for development on loopback.
    case simulated
    /// Stripe's API (or localstripe) with the operator's keys; the secrets are read from their files at start.
    case stripe(StripeSettings)

    public var kind: CardNetworkKind {
        switch self {
        case .simulated: .simulated
        case .stripe: .stripe
        }
    }
}

/// `--stripe-api-url`, `--stripe-publishable-key`, `--stripe-secret-key-file`, `--stripe-webhook-secret-file`.
public struct StripeSettings: Sendable, Equatable {
    public var apiURL: String
    public var publishableKey: String
    /// An owner-only file whose first line is the secret key (`sk_…`).
    public var secretKeyFile: String
    /// An owner-only file whose first line is the webhook signing secret (`whsec_…`); without it, webhooks are
    /// refused and top-ups that wait for 3-D Secure settle when they are read.
    public var webhookSecretFile: String?

    public static let defaultAPIURL = "https://api.stripe.com"

    public init(apiURL: String = Self.defaultAPIURL, publishableKey: String, secretKeyFile: String, webhookSecretFile: String?) {
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
        self.publishableKey = publishableKey
        self.secretKeyFile = secretKeyFile
        self.webhookSecretFile = webhookSecretFile
    }
}
