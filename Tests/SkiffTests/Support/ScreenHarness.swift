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
    let auth = AuthWorkerDouble.succeeding
    let account = AccountWorkerDouble.succeeding
    let cards = CardWorkerDouble.succeeding
    let notifications = NotificationsWorkerDouble.succeeding
    let transfers = TransferWorkerDouble.succeeding
    let sessions: SessionStoreDouble
    let preferences = PreferencesStoreDouble()
    let cache = CacheStoreDouble()
    let outbox = OutboxDouble(code: "482913")
    let tokens = SessionTokenBox()
    let live = LiveEventsWorkerDouble()

    init(
        session: Session? = nil, width: Int = 100, height: Int = 30, clock: SceneClock = .immediate(),
        formatting: Formatting = Seeds.utc, idleLock: IdleLockSettings? = nil, configure: (ScreenHarness) -> Void = { _ in }
    ) {
        terminal = HeadlessTerminal(width: width, height: height, capabilities: .init(hasColor: false, isUnicode: true))
        sessions = SessionStoreDouble(session)
        let dependencies = AppDependencies(
            auth: auth, account: account, cards: cards, notifications: notifications, transfers: transfers, sessions: sessions,
            preferences: preferences, cache: cache, outbox: outbox, tokens: tokens, demo: Seeds.demo,
            serverDescription: "the built-in server at 127.0.0.1:8080", clock: clock, formatting: formatting,
            liveEvents: live
        )
        app = SkiffApp(terminal: terminal, dependencies: dependencies, environment: ["LANG": "C.UTF-8"], idleLock: idleLock)
        configure(self)
    }

    var navigation: NavigationController { app.application.rootViewController as! NavigationController }
    var top: ViewController? { navigation.visibleViewController }
    var screen: String { terminal.lines.joined(separator: "\n") }
    /// The screen's words with wrapped lines run together (`HeadlessTerminal.prose`).
    var prose: String { terminal.prose }

    /// Starts the coordinator and the application, and waits for the first screen to settle.
    func start() async throws {
        app.coordinator.start()
        try app.application.start()
        await settle()
    }

    /// The gates a test set on the worker doubles to hold requests open.
    private var gates: [Gate] { [auth.gate, account.gate, cards.gate, transfers.gate, transfers.progressGate].compactMap { $0 } }

    /// Lets every task the last keys started run to its end (but the requests a gate holds), then draws.
    func settle() async {
        if gates.isEmpty {
            await app.application.settle()
        } else {
            await app.application.tasks.settle { self.gates.map(\.held).reduce(0, +) }
        }
        app.application.render()
    }

    /// Lets the main actor run (the live feed's updates are not tracked tasks) until `condition` holds of the drawn
    /// screen, for at most 100,000 turns; never sleeps.
    func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            app.application.renderIfNeeded()
            if condition() { return true }
            await Task.yield()
        }
        return false
    }

    /// What the server's live stream says after a card changed anywhere (`card-changed`, which Home follows by
    /// fetching the cards, now `cards`): true once `shown` holds of the drawn screen.
    func cardsChanged(to cards: [Card], until shown: () -> Bool) async -> Bool {
        self.cards.cardsResult.set(.success(cards))
        live.send(.event(.cardChanged))
        return await waitUntil(shown)
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
