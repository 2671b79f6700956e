import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SkiffConfigFile
import SkiffCore
import SkiffServer
import Synchronization

@main
struct SkiffServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skiff-server",
        abstract: "The Skiff backend: a JSON API over SQLite, or over PostgreSQL for several instances.",
        version: SkiffVersion.line(program: "skiff-server", commit: BuildInfo.commit),
        subcommands: [Serve.self, Migrate.self, SeedDemo.self, Seed.self, SeedUsers.self, LedgerCheckCommand.self],
        defaultSubcommand: Serve.self
    )

    /// Reads `/etc/skiff/server.toml` (or `--config`) and the environment into the arguments, under the command
    /// line's own, then runs the command; `--generate-man` writes skiff-server(1) from the same options.
    static func main() async {
        let commandLine = Array(CommandLine.arguments.dropFirst())
        if commandLine == ["--generate-man"] {
            print(ServerManual.page.roff, terminator: "")
            return
        }
        let prepared: (arguments: [String], sources: [String: ConfigArguments.Source])
        do {
            prepared = try ServerSettings.arguments(commandLine, environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("skiff-server: \(error)\n".utf8))
            Foundation.exit(78)  // EX_CONFIG
        }
        do {
            var command = try parseAsRoot(prepared.arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code != .success, let note = ServerSettings.note(for: message, sources: prepared.sources) {
                FileHandle.standardError.write(Data("\(message)\n\(note)\n".utf8))
                Foundation.exit(code.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// Options every command shares: where the data lives and which server key it is hashed with.
struct StorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the settings from this TOML file instead of \(ServerSettings.defaultPath) (read when it exists).",
        discussion: "Its keys are the long options' names with underscores (port = 8080, key_file = \"/etc/skiff/server.key\"); "
            + "the command line wins over the environment (SKIFF_ and the name in capitals, SKIFF_DATABASE_URL for --database), "
            + "the environment over the file, the file over the defaults.",
        valueName: "path"
    ))
    var config: String?

    @Option(help: ArgumentHelp(
        "A PostgreSQL URL (postgres://USER@HOST:PORT/DB) or a SQLite file.",
        discussion: "Defaults to $SKIFF_DATABASE_URL, else skiff.sqlite under $XDG_DATA_HOME/skiff. "
            + "The PostgreSQL password is taken from the URL, $PGPASSWORD, or $PGPASSFILE / ~/.pgpass (mode 0600); "
            + "sslmode is verify-full off loopback unless the URL says disable, require or verify-ca (sslrootcert=PEM).",
        valueName: "url-or-path"
    ))
    var database: String?

    @Option(help: ArgumentHelp(
        "A file holding the server key as base64 of at least 32 bytes (openssl rand -base64 32).",
        discussion: "Every instance on one PostgreSQL database needs the same key: this file or "
            + "$SKIFF_FINGERPRINT_KEY (base64). Without either, SQLite keeps a generated server.key beside its file.",
        valueName: "path"
    ))
    var keyFile: String?

    @Option(name: .customLong("sms-outbox"), help: "The file one-time codes are appended to, one JSON line each.")
    var smsOutbox: String = SkiffServerConfiguration.defaultSMSOutboxPath

    @Option(help: "The bcrypt cost (10–31).")
    var bcryptCost: UInt8 = 12

    @Option(help: "The log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String = "info"

    @Option(help: ArgumentHelp(
        "How log lines are written: text, or json (one object a line, for a log collector).",
        discussion: "A JSON line written while a request runs carries its request_id, which the answer's X-Request-ID header also gives."
    ))
    var logFormat: LogFormat = .text

    func validate() throws {
        if database?.isEmpty == true { throw ValidationError("--database needs a PostgreSQL URL or a SQLite file.") }
        if keyFile?.isEmpty == true { throw ValidationError("--key-file needs a file.") }
        guard Self.bcryptCosts.contains(bcryptCost) else {
            throw ValidationError("--bcrypt-cost must be 10 to 31: lower costs are too cheap to guess against.")
        }
    }

    /// The bcrypt costs a server may run with; tests build their configurations directly, with cost 4.
    static let bcryptCosts: ClosedRange<UInt8> = 10...31

    /// `--database`, else `SKIFF_DATABASE_URL`, else the default SQLite file (the URL is never shown as a default,
    /// so `--help` cannot print its password).
    var databaseLocation: DatabaseLocation {
        DatabaseLocation(parsing: database ?? ProcessInfo.processInfo.environment["SKIFF_DATABASE_URL"]
            ?? SkiffServerConfiguration.defaultDatabasePath)
    }

    /// Whether `arguments` (the process's own, which `ps` shows) give `--database` a URL with a password in it.
    static func passwordOnCommandLine(_ arguments: [String]) -> Bool {
        var values: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--database", index + 1 < arguments.count { values.append(arguments[index + 1]) }
            if argument.hasPrefix("--database=") { values.append(String(argument.dropFirst("--database=".count))) }
        }
        return values.contains { $0.range(of: "^postgres(ql)?://[^@/?]*:[^@/?]*@", options: [.regularExpression, .caseInsensitive]) != nil }
    }

    /// The process's logger, made once `--log-format` has chosen the handler.
    func logger() -> Logger {
        logFormat.bootstrap()
        var logger = Logger(label: "skiff-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return logger
    }

    func configuration(
        host: String = "127.0.0.1", port: Int = 8080, tls: TLSFiles? = nil, allowsInsecureHTTP: Bool = false, seedDemo: Bool = false
    ) throws -> SkiffServerConfiguration {
        let logger = logger()
        if Self.passwordOnCommandLine(CommandLine.arguments) {
            logger.warning("""
                --database holds a password on the command line, where every user of this machine can read it (ps, \
                /proc). Put it in a password file (PGPASSFILE, else ~/.pgpass, mode 0600), PGPASSWORD or \
                SKIFF_DATABASE_URL instead.
                """)
        }
        return SkiffServerConfiguration(
            host: host, port: port, tls: tls, allowsInsecureHTTP: allowsInsecureHTTP,
            database: databaseLocation, smsOutboxPath: smsOutbox,
            fingerprintKey: keyFile == nil ? ProcessInfo.processInfo.environment["SKIFF_FINGERPRINT_KEY"] : nil,
            keyFile: keyFile,
            bcryptCost: bcryptCost, seedDemoDataIfEmpty: seedDemo, logger: logger
        )
    }
}

/// `--log-format`: the one choice of log handler for the process, made before the first logger.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text
    case json

    private static let chosen = Mutex(false)

    /// Installs the handler once (`LoggingSystem.bootstrap` may run only once; `configuration()` can run twice).
    func bootstrap() {
        guard self == .json else { return }
        Self.chosen.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
            done = true
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type: the parser's help dump (ServerSettings' options table) names a default
        // subcommand only when its configuration does.
        commandName: "serve",
        abstract: "Runs the server until SIGINT or SIGTERM.",
        discussion: "Plain HTTP, --demo and the SMS outbox are for loopback (127.0.0.0/8, ::1, localhost); any other "
            + "--host needs --tls-cert and --tls-key, or --insecure-http behind a TLS proxy, and "
            + "--sms-outbox-off-loopback."
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
    @Option(help: ArgumentHelp("The server certificate, then any intermediates (PEM); with --tls-key, serves HTTPS.", valueName: "pem"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The private key of --tls-cert (PEM, unencrypted).", valueName: "pem"))
    var tlsKey: String?
    @Flag(name: .customLong("insecure-http"), help: "Serve plain HTTP on a non-loopback --host (behind a TLS proxy); warns at every start.")
    var insecureHTTP = false
    @Flag(help: "Seed the demo account (its password is published) on an empty database; loopback --host only.")
    var demo = false
    @Flag(name: .customLong("sms-outbox-off-loopback"), help: ArgumentHelp(
        "Append one-time codes to --sms-outbox on a non-loopback --host too.",
        discussion: "The outbox is a development channel that keeps every code in clear: without this flag, a server "
            + "listening off loopback refuses to start with it."
    ))
    var smsOutboxOffLoopback = false
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "A proxy (IP address) whose X-Forwarded-For names the client; repeatable.",
        discussion: "Without one, the client of a request is the connection's peer and the header is ignored.",
        valueName: "address"
    ))
    var trustedProxies: [String] = []
    @Option(name: .customLong("daily-transfer-limit"), help: ArgumentHelp(
        "The most one wallet may send in transfers in a UTC day, in minor units (cents).",
        discussion: "The default is 500000, $5,000.00.",
        valueName: "cents"
    ))
    var dailyTransferLimit: Int64?
    @Option(name: .customLong("top-up-limit-per-account"), help: ArgumentHelp(
        "Top-ups one account may start in any 24 hours: a count and an amount in cents, as COUNT,CENTS.",
        discussion: "The default is \(Self.described(TopUpVelocity().perAccount)). Declined top-ups do not count.",
        valueName: "count,cents"
    ))
    var topUpLimitPerAccount: String?
    @Option(name: .customLong("top-up-limit-per-card"), help: ArgumentHelp(
        "Top-ups from one card, on any account, in any 24 hours: COUNT,CENTS.",
        discussion: "The default is \(Self.described(TopUpVelocity().perCard)).",
        valueName: "count,cents"
    ))
    var topUpLimitPerCard: String?
    @Option(name: .customLong("card-network"), help: ArgumentHelp(
        "Where cards are added and charged: simulated (development, loopback only) or stripe.",
        discussion: "simulated approves Stripe's test cards without charging anything, so it is refused off loopback. "
            + "stripe needs --stripe-publishable-key and --stripe-secret-key-file.",
        valueName: "network"
    ))
    var cardNetwork: String = CardNetworkKind.simulated.rawValue
    @Option(name: .customLong("stripe-api-url"), help: ArgumentHelp("Stripe's API (or localstripe's address).", valueName: "url"))
    var stripeAPIURL = StripeSettings.defaultAPIURL
    @Option(name: .customLong("stripe-publishable-key"), help: ArgumentHelp(
        "The publishable key (pk_…) wallets tokenize cards with.", valueName: "key"
    ))
    var stripePublishableKey: String?
    @Option(name: .customLong("stripe-secret-key-file"), help: ArgumentHelp(
        "An owner-only file whose first line is the secret key (sk_…); never logged.", valueName: "path"
    ))
    var stripeSecretKeyFile: String?
    @Option(name: .customLong("stripe-webhook-secret-file"), help: ArgumentHelp(
        "An owner-only file whose first line is the webhook signing secret (whsec_…) of POST /v1/webhooks/stripe.",
        discussion: "Without it webhooks are refused, and a top-up waiting for 3-D Secure completes when read.",
        valueName: "path"
    ))
    var stripeWebhookSecretFile: String?
    @Flag(name: .customLong("no-migrate"), help: ArgumentHelp(
        "Apply no migration at start; refuse a database that lacks any.",
        discussion: "For several instances on one database: run `skiff-server migrate` once, then start them."
    ))
    var noMigrate = false
    @Option(name: .customLong("metrics-port"), help: ArgumentHelp(
        "Serve Prometheus metrics at GET /metrics on this port (0 picks a free one), on --metrics-host.",
        discussion: "Without it no metrics are served. The API's port never answers /metrics.",
        valueName: "port"
    ))
    var metricsPort: Int?
    @Option(name: .customLong("metrics-host"), help: ArgumentHelp("The address the metrics port listens on.", valueName: "address"))
    var metricsHost = "127.0.0.1"
    @Flag(name: .customLong("metrics-off-loopback"), help: ArgumentHelp(
        "Serve metrics on a --metrics-host that is not loopback; warns at every start.",
        discussion: "The counts say how busy the service is, who is refused and how many sessions are open: keep them "
            + "behind a firewall."
    ))
    var metricsOffLoopback = false
    @OptionGroup var storage: StorageOptions

    /// `--tls-cert` and `--tls-key`, when both are given.
    var tls: TLSFiles? {
        guard let tlsCert, let tlsKey else { return nil }
        return TLSFiles(certificateChainPath: tlsCert, privateKeyPath: tlsKey)
    }

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: give both to serve HTTPS, or neither.")
        }
        if let dailyTransferLimit, dailyTransferLimit <= 0 {
            throw ValidationError("--daily-transfer-limit needs a number of cents above zero, such as 500000 for $5,000.00.")
        }
        for (name, value) in [("--top-up-limit-per-account", topUpLimitPerAccount), ("--top-up-limit-per-card", topUpLimitPerCard)] {
            if let value, Self.velocityLimit(value) == nil {
                throw ValidationError("\(name) needs COUNT,CENTS with both above zero, such as 10,1000000 for ten top-ups "
                    + "and $10,000.00, not \"\(value)\".")
            }
        }
        switch CardNetworkKind(rawValue: cardNetwork) {
        case nil:
            throw ValidationError("--card-network needs simulated or stripe, not \"\(cardNetwork)\".")
        case .stripe:
            var missing: [String] = []
            if stripePublishableKey == nil { missing.append("--stripe-publishable-key") }
            if stripeSecretKeyFile == nil { missing.append("--stripe-secret-key-file") }
            guard missing.isEmpty else {
                throw ValidationError("--card-network stripe needs \(missing.joined(separator: " and ")).")
            }
            guard let url = URL(string: stripeAPIURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--stripe-api-url needs an http or https URL, not \"\(stripeAPIURL)\".")
            }
        case .simulated:
            break
        }
        if let metricsPort, !(0...65535).contains(metricsPort) || (metricsPort == port && metricsPort != 0) {
            throw ValidationError("--metrics-port needs a port from 0 to 65535 other than --port's \(port).")
        }
        if metricsPort != nil, !LoopbackAddress.isLoopback(host: metricsHost), !metricsOffLoopback {
            throw ValidationError("--metrics-host \(metricsHost) is not loopback: the metrics would tell anyone who reaches "
                + "them how busy the service is, who is refused and how many sessions are open. Give "
                + "--metrics-off-loopback to serve them there anyway (behind a firewall), or leave --metrics-host out.")
        }
        for proxy in trustedProxies where ClientAddress.normalized(proxy) == nil {
            throw ValidationError("--trusted-proxy needs an IP address, not \"\(proxy)\".")
        }
        let configuration = try serverConfiguration()
        do {
            _ = try configuration.checkExposure()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The server these options describe.
    func serverConfiguration() throws -> SkiffServerConfiguration {
        var configuration = try storage.configuration(
            host: host, port: port, tls: tls, allowsInsecureHTTP: insecureHTTP, seedDemo: demo
        )
        configuration.trustedProxies = trustedProxies
        configuration.allowsSMSOutboxOffLoopback = smsOutboxOffLoopback
        if let dailyTransferLimit { configuration.limits.dailyTransferLimitMinor = dailyTransferLimit }
        if let limit = topUpLimitPerAccount.flatMap(Self.velocityLimit) { configuration.limits.topUpVelocity.perAccount = limit }
        if let limit = topUpLimitPerCard.flatMap(Self.velocityLimit) { configuration.limits.topUpVelocity.perCard = limit }
        if CardNetworkKind(rawValue: cardNetwork) == .stripe, let stripePublishableKey, let stripeSecretKeyFile {
            configuration.cardNetwork = .stripe(StripeSettings(
                apiURL: stripeAPIURL, publishableKey: stripePublishableKey, secretKeyFile: stripeSecretKeyFile,
                webhookSecretFile: stripeWebhookSecretFile
            ))
        }
        if noMigrate { configuration.migrations = .requireCurrent }
        configuration.metrics = metricsPort.map { .init(host: metricsHost, port: $0) }
        if metricsPort != nil, !LoopbackAddress.isLoopback(host: metricsHost) {
            configuration.startWarnings.append("Serving metrics on \(metricsHost), which is not loopback "
                + "(--metrics-off-loopback): keep that port behind a firewall.")
        }
        return configuration
    }

    /// A limit as the option takes it: `10,1000000`.
    static func described(_ limit: TopUpVelocity.Limit) -> String { "\(limit.count),\(limit.amountMinor)" }

    /// `COUNT,CENTS` as a limit, both above zero.
    static func velocityLimit(_ text: String) -> TopUpVelocity.Limit? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let cents = Int64(parts[1]), count > 0, cents > 0 else { return nil }
        return TopUpVelocity.Limit(count: count, amountMinor: cents)
    }

    func run() async throws {
        let configuration = try serverConfiguration()
        let app = try await buildApplication(configuration)
        try await runUntilSignalled(app, limits: configuration.limits, logger: configuration.logger)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Brings the database's schema up to this skiff-server's, then exits.",
        discussion: "`serve` migrates at start unless --no-migrate; with several instances, run this once first."
    )

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let applied = try await SkiffServerSeeder.migrate(try storage.configuration())
        print(applied.isEmpty ? "The database was current already." : "Applied \(applied.count) migration(s): \(applied.joined(separator: ", ")).")
    }
}

struct SeedDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo",
        abstract: "Creates the demo account (\(DemoCredentials.demo.countryCode) \(DemoCredentials.demo.phoneNumber), "
            + "password \(DemoCredentials.demo.password)) if it does not exist."
    )

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let created = try await SkiffServerSeeder.seedDemo(try storage.configuration())
        print(created ? "Seeded the demo account \(DemoCredentials.demo.countryCode) \(DemoCredentials.demo.phoneNumber)."
                      : "The demo account exists already.")
    }
}

/// The first line of the `--password-file` at `path`.
func passwordInFile(_ path: String) throws -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
          let line = text.split(separator: "\n", omittingEmptySubsequences: false).first, !line.isEmpty
    else { throw ValidationError("--password-file \(path) cannot be read, or its first line is empty.") }
    return String(line)
}

struct SeedUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-users",
        abstract: "Creates N users with consecutive +1 numbers and opens a session for each, for load tests.",
        discussion: """
            Writes one JSON line per user, {"userId","phone","token"}, to --sessions-out (mode 0600): the tokens \
            are live sessions, so keep the file like a password. The sessions skip sign-in, whose rate limits \
            would make a load test with many users wait.
            """
    )

    @Option(help: "How many users.") var count = 1000
    @Option(help: ArgumentHelp("The national number of the first user; the next ones count up.", valueName: "number"))
    var firstNumber: Int64 = 2_122_000_000
    @Option(help: ArgumentHelp("A file whose first line is the users' password.", valueName: "path"))
    var passwordFile: String
    @Option(help: ArgumentHelp("Where the users and their tokens go.", valueName: "path")) var sessionsOut: String
    @OptionGroup var storage: StorageOptions

    func validate() throws {
        guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1 to 100000.") }
    }

    func run() async throws {
        let users = try await SkiffServerSeeder.seedUsers(
            try storage.configuration(), count: count, firstNumber: firstNumber, password: try passwordInFile(passwordFile)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let lines = try users.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        _ = FileManager.default.createFile(atPath: sessionsOut, contents: nil, attributes: [.posixPermissions: 0o600])
        try Data(lines.utf8).write(to: URL(fileURLWithPath: sessionsOut))
        print("Opened \(users.count) users' sessions into \(sessionsOut).")
    }
}

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Creates a user (if needed) and adds N generated transactions, for load tests."
    )

    @Option(help: "The country code.") var countryCode = "+1"
    @Option(help: "The phone number.") var phone: String
    @Option(help: "The full name of a new user.") var name = "Load Test"
    @Option(help: ArgumentHelp(
        "The password of a new user.",
        discussion: "Or --password-file; with neither, a new user gets a generated password, printed once."
    ))
    var password: String?
    @Option(help: ArgumentHelp("A file whose first line is the password of a new user.", valueName: "path"))
    var passwordFile: String?
    @Option(help: "How many transactions to add.") var transactions = 1000
    @OptionGroup var storage: StorageOptions

    func validate() throws {
        guard transactions >= 0 else { throw ValidationError("--transactions must not be negative.") }
        if password != nil && passwordFile != nil { throw ValidationError("Give the password once: --password or --password-file.") }
    }

    /// `--password`, else the first line of `--password-file`, else nil (a generated one).
    func givenPassword() throws -> String? {
        guard let passwordFile else { return password }
        return try passwordInFile(passwordFile)
    }

    func run() async throws {
        let started = ContinuousClock.now
        let summary = try await SkiffServerSeeder.seed(
            try storage.configuration(), countryCode: countryCode, phoneNumber: phone, fullName: name,
            password: try givenPassword(), transactions: transactions
        )
        let elapsed = ContinuousClock.now - started
        let balance = Money(amountMinor: summary.balanceMinor, currency: summary.currency).formatted()
        print("\(summary.createdUser ? "Created" : "Found") user \(summary.userID); added \(summary.transactions) transactions in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2)))); balance \(balance).")
        if let generated = summary.generatedPassword {
            print("Its password (generated, shown only now): \(generated)")
        }
    }
}

struct LedgerCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger-check",
        abstract: "Checks the ledger's invariants in one snapshot; exits 1 when one is broken.",
        discussion: "Prints one line: the sum of every account's balance (0), the accounts whose balance is not the sum "
            + "of their postings, the transfers whose postings do not balance, and the wallets below zero (all 0). "
            + "A running server may use the database meanwhile."
    )

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let check = try await LedgerCheck.read(storage.databaseLocation, logger: storage.logger())
        print(check)
        if !check.isClean { throw ExitCode(1) }
    }
}
