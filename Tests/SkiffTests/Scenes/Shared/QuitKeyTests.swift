import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// Ctrl-Q (`.quitWhileTyping`) quits from every screen, as it does from Login, also with the focus in a text field;
/// `?` lists it on each.
@MainActor
@Suite("Quit key on every screen", .timeLimit(.minutes(3)))
struct QuitKeyTests {
    /// A way to reach one screen from the start of the wallet: signed in or not, the keys, the screen expected.
    struct Route: Sendable, CustomTestStringConvertible {
        var name: String
        /// The screen's ViewController type.
        var screen: String
        var signedIn = true
        var locked = false
        var keys: [Key]
        var typesFirst: String?
        var testDescription: String { name }
    }

    nonisolated static let routes: [Route] = [
        Route(name: "Log in", screen: "LoginViewController", signedIn: false, keys: [], typesFirst: "20255"),
        Route(name: "Create account", screen: "RegisterViewController", signedIn: false, keys: [.ctrl("n")], typesFirst: "Sam"),
        Route(name: "Forgot password", screen: "ForgotPasswordViewController", signedIn: false, keys: [.ctrl("p")], typesFirst: "20255"),
        Route(name: "Locked", screen: "LockViewController", locked: true, keys: [], typesFirst: "harbour"),
        Route(name: "Home", screen: "HomeViewController", keys: []),
        Route(name: "Transaction", screen: "TransactionDetailViewController", keys: [.down, .enter]),
        Route(name: "Send money", screen: "SendMoneyViewController", keys: [.character("s")], typesFirst: "20255"),
        Route(name: "Top up", screen: "TopUpViewController", keys: [.character("t")]),
        Route(name: "Cards", screen: "CardsViewController", keys: [.character("c")]),
        Route(name: "Card", screen: "CardDetailViewController", keys: [.character("c"), .enter]),
        Route(name: "Add card", screen: "AddCardViewController", keys: [.character("a")], typesFirst: "4242"),
        Route(name: "Activate card", screen: "ActivateCardViewController", keys: [.character("v")], typesFirst: "00"),
        Route(name: "Notifications", screen: "NotificationsViewController", keys: [.character("n")]),
        Route(name: "Notification", screen: "NotificationsViewController", keys: [.character("n"), .enter]),
    ]

    @Test("Ctrl-Q quits, with status 0, and nothing is typed; ? lists it", arguments: routes)
    func quits(route: Route) async throws {
        var session = Seeds.session
        session.isLocked = route.locked
        let harness = ScreenHarness(session: route.signedIn ? session : nil) {
            $0.account.pages.set(.success(HomeScreenTests.pages(3)))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
            $0.notifications.listResult.set(.success([Seeds.notification]))
        }
        try await harness.start()
        for key in route.keys { await harness.send(key) }
        if let text = route.typesFirst { await harness.type(text) }
        let screen = harness.screen
        let top = try #require(harness.top)
        #expect(String(describing: type(of: top)) == route.screen, "reached \(route.name)")
        #expect(top.helpBindings.contains { $0.keys == [.ctrl("q")] && $0.help == "quit" }, "? lists it on \(route.name)")
        #expect(harness.app.application.exitStatus == nil)
        await harness.send(.ctrl("q"))
        #expect(harness.app.application.exitStatus == 0, "Ctrl-Q on \(route.name)")
        #expect(harness.screen == screen, "nothing was typed, nothing moved")
    }

    @Test("the key map's quit key is the one honoured: remapped, the new key quits and Ctrl-Q types nothing")
    func followsKeyMap() throws {
        let standard = WalletKeys.standard
        let remapped = WalletKeys { $0 == .quitWhileTyping ? .init(.function(10), "quit") : standard.entry(for: $0) }
        let sut = SceneViewController(title: "Test", keys: remapped)
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: NavigationController(root: sut))
        try app.start()
        app.send(.ctrl("q"))
        #expect(app.exitStatus == nil)
        #expect(sut.helpBindings.contains { $0.keys == [.function(10)] && $0.help == "quit" })
        app.send(.function(10))
        #expect(app.exitStatus == 0)
    }
}
