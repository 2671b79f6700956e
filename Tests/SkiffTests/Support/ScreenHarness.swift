import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// The whole wallet on a headless 100×30 terminal, with worker doubles: type keys, wait for the work they
/// start, read the screen.
@MainActor
final class ScreenHarness {
    let terminal: HeadlessTerminal
    let app: SkiffApp
    let auth = AuthWorkerDouble()
    let account = AccountWorkerDouble()
    let cards = CardWorkerDouble()
    let notifications = NotificationsWorkerDouble()
    let sessions: SessionStoreDouble
    let preferences = PreferencesStoreDouble()
    let cache = CacheStoreDouble()
    let outbox = OutboxDouble(code: "482913")
    let tokens = SessionTokenBox()

    init(session: Session? = nil, width: Int = 100, height: Int = 30, clock: SceneClock = .immediate(), configure: (ScreenHarness) -> Void = { _ in }) {
        terminal = HeadlessTerminal(width: width, height: height, capabilities: .init(hasColor: false, isUnicode: true))
        sessions = SessionStoreDouble(session)
        let dependencies = AppDependencies(
            auth: auth, account: account, cards: cards, notifications: notifications, sessions: sessions,
            preferences: preferences, cache: cache, outbox: outbox, tokens: tokens, demo: Seeds.demo,
            serverDescription: "the built-in server at 127.0.0.1:8080", clock: clock, formatting: Seeds.utc
        )
        app = SkiffApp(terminal: terminal, dependencies: dependencies, environment: ["LANG": "C.UTF-8"])
        configure(self)
    }

    var navigation: NavigationController { app.application.rootViewController as! NavigationController }
    var top: ViewController? { navigation.visibleViewController }
    var screen: String { terminal.lines.joined(separator: "\n") }

    /// The screen with the spinner's animation frame replaced by `*`, for snapshots taken while it turns.
    var stillScreen: String {
        String(screen.map { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains($0) ? "*" : $0 })
    }

    /// Starts the coordinator and the application, and waits for the first screen to settle.
    func start() async throws {
        app.coordinator.start()
        try app.application.start()
        await settle()
    }

    /// The gates a test set on the worker doubles to hold requests open.
    private var gates: [Gate] { [auth.gate, account.gate, cards.gate].compactMap { $0 } }

    /// Lets every task the last keys started run to its end (but the requests a gate holds), then draws.
    func settle() async {
        if gates.isEmpty {
            await app.application.settle()
        } else {
            await app.application.tasks.settle { self.gates.map(\.held).reduce(0, +) }
        }
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

    /// From Login: types a new number, opens Register (Ctrl-N) and fills name and both passwords.
    func fillRegistration() async {
        await type("2025550199")
        await send(.ctrl("n"))
        await type("Sam Lee")
        await send(.tab)
        await type("harbour-lights-9")
        await send(.tab)
        await type("harbour-lights-9")
    }
}

/// `Tests/SkiffTests/__Snapshots__`, one text file per screen.
private let snapshotFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("__Snapshots__")

/// Compares a whole screen with its recorded text under `__Snapshots__/`. A missing snapshot is recorded and
/// the test fails, so a new screen is looked at once before it is trusted; `SKIFF_RECORD_SNAPSHOTS=1`
/// records them all again.
func assertSnapshot(_ screen: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = snapshotFolder
    let file = folder.appendingPathComponent(name + ".txt")
    let text = screen.split(separator: "\n", omittingEmptySubsequences: false)
        .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        .joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["SKIFF_RECORD_SNAPSHOTS"] == "1"
    if !record, let recorded = try? String(contentsOf: file, encoding: .utf8) {
        #expect(recorded == text, "Screen \(name) differs from its snapshot:\n\(text)", sourceLocation: sourceLocation)
        return
    }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? text.write(to: file, atomically: true, encoding: .utf8)
    Issue.record("Recorded snapshot \(name); check it and run the tests again.", sourceLocation: sourceLocation)
}
