import Foundation
import Logging
import SkiffCore
import SkiffServer
import TerminalUI
@testable import Skiff

/// The whole wallet on a headless 100×30 terminal with its live workers, talking through a `FaultProxy` to a
/// real in-process server (throwaway SQLite, bcrypt cost 4, the demo account, its SMS outbox beside the app's
/// files as with the embedded server).
@MainActor
final class LiveAppHarness {
    /// The app's request timeout here: short, so a late answer costs the test little, yet long enough that a
    /// request that is not faulted still answers in time while the whole suite loads two cores (1 s did not:
    /// a retried sign-in timed out on CI).
    static let requestTimeout: Duration = .seconds(3)

    let folder: URL
    let paths: AppPaths
    /// The server's configuration, for seeding more users into its database.
    let configuration: SkiffServerConfiguration
    let server: SkiffServerInstance
    let proxy: FaultProxy
    let terminal: HeadlessTerminal
    let app: SkiffApp

    static func start() async throws -> LiveAppHarness {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-faults-\(UUID().uuidString)")
        let paths = AppPaths.rooted(at: folder)
        for directory in [paths.data, paths.state, paths.cache] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let quiet = Logger(label: "test.faults", factory: { _ in SwiftLogNoOpLogHandler() })
        // Every request reaches the server from the proxy's address, and a retry may ask for a code again at once.
        var limits = SkiffServerLimits()
        limits.authRequestBurst = 1_000
        limits.codeResendInterval = 0
        limits.codesPerNumberPerHour = 1_000
        limits.codesPerNumberPerDay = 1_000
        limits.codesPerAddressPerHour = 1_000
        let configuration = SkiffServerConfiguration(
            host: "127.0.0.1", port: 0, database: .sqlite(path: paths.serverDatabase.path),
            smsOutboxPath: paths.smsOutbox.path, dataDirectory: paths.builtInServerData.path, bcryptCost: 4, seedDemoDataIfEmpty: true,
            logger: quiet, limits: limits
        )
        let server = try await SkiffServerInstance.start(configuration)
        let proxy: FaultProxy
        do {
            proxy = try await FaultProxy.start(upstream: server.baseURL, lateBy: requestTimeout * 3)
        } catch {
            await server.stop()
            throw error
        }
        let terminal = HeadlessTerminal(width: 100, height: 30, capabilities: .init(hasColor: false, isUnicode: true))
        let app = try SkiffApp(
            terminal: terminal,
            configuration: SkiffAppConfiguration(
                serverURL: proxy.baseURL, paths: paths, isEmbeddedServer: true, requestTimeout: requestTimeout
            ),
            environment: ["LANG": "C.UTF-8"], logger: quiet
        )
        let harness = LiveAppHarness(
            folder: folder, paths: paths, configuration: configuration, server: server, proxy: proxy, terminal: terminal, app: app
        )
        app.coordinator.start()
        try app.application.start()
        await harness.settle()
        return harness
    }

    private init(
        folder: URL, paths: AppPaths, configuration: SkiffServerConfiguration, server: SkiffServerInstance, proxy: FaultProxy,
        terminal: HeadlessTerminal, app: SkiffApp
    ) {
        self.folder = folder
        self.paths = paths
        self.configuration = configuration
        self.server = server
        self.proxy = proxy
        self.terminal = terminal
        self.app = app
    }

    func stop() async {
        await app.api?.shutdown()
        await proxy.stop()
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var navigation: NavigationController { app.application.rootViewController as! NavigationController }
    var top: ViewController? { navigation.visibleViewController }
    var screen: String { terminal.lines.joined(separator: "\n") }
    /// The screen's words with wrapped lines run together (`HeadlessTerminal.prose`).
    var prose: String { terminal.prose }
    /// Whether the app is still running (nothing quit it).
    var isRunning: Bool { app.application.exitStatus == nil }

    /// Lets every task the last keys started run to its end, then draws.
    func settle() async {
        await app.application.settle()
        app.application.render()
    }

    func type(_ text: String) async {
        app.application.type(text)
        await settle()
    }

    func send(_ keys: Key...) async {
        app.application.send(keys)
        await settle()
    }

    /// Waits (up to `limit`) until the screen shows `text`; work that reaches the main actor late (the 401 hook)
    /// gets its turns meanwhile.
    @discardableResult
    func waitFor(_ text: String, limit: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            await settle()
            if screen.contains(text) || prose.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The one-time code the server last "texted" to the demo phone for `purpose`.
    func latestCode(for purpose: CodePurpose, to e164: String = LiveAppHarness.demoPhone.e164) -> String? {
        DevelopmentOutbox(file: paths.smsOutbox).latestCode(to: e164, purpose: purpose, since: .distantPast)
    }

    static let demoPhone = try! PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)

    /// From Login: logs in as the demo account and waits for Home (the number may be there from last time).
    func logIn() async throws {
        // A remembered number puts the cursor in Password already.
        if (top as? LoginViewController)?.phoneNumber.text.isEmpty != false {
            await type(DemoCredentials.demo.phoneNumber)
            await send(.tab)
        }
        await type(DemoCredentials.demo.password)
        await send(.enter)
        guard await waitFor("Balance") else { throw HarnessError(screen: screen, step: "log in") }
    }

    /// Jordan Rivera, someone to send money to ("Jordan R."): made in the server's database beside the demo account.
    static let jordan = (countryCode: "+1", phoneNumber: "202 555 0111", fullName: "Jordan Rivera", password: "river-stones-8")

    /// Makes Jordan's account (with the opening balance) in the running server's database.
    func addJordan() async throws {
        _ = try await SkiffServerSeeder.seed(
            configuration, countryCode: Self.jordan.countryCode, phoneNumber: Self.jordan.phoneNumber,
            fullName: Self.jordan.fullName, password: Self.jordan.password, transactions: 0
        )
    }

    /// A step that did not reach the screen it expected, with the screen it saw.
    struct HarnessError: Error, CustomStringConvertible {
        let screen: String
        let step: String
        var description: String { "\(step) did not reach its screen; the screen was:\n\(screen)" }
    }
}
