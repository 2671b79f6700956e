import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Notifications screen", .timeLimit(.minutes(3)))
struct NotificationsScreenTests {
    @Test("filled: unread marked; Enter opens one in full and marks it read; Esc to the list, Esc brings the count to Home")
    func filled() async throws {
        let harness = ScreenHarness(session: Seeds.session) { harness in
            harness.notifications.listResult.set(.success([
                Seeds.notification,
                AppNotification(id: "n_2", title: "Card shipped", body: "It is on its way.", createdAt: Seeds.now.addingTimeInterval(-86400), read: true),
            ]))
        }
        try await harness.start()
        await harness.send(.character("n"))
        #expect(harness.top is NotificationsViewController)
        assertSnapshot(of: harness.terminal, as: .screen, named: "notifications-filled")
        await harness.send(.enter)
        #expect(harness.notifications.marked.all == ["n_1"])
        #expect(!harness.screen.contains("Card shipped"), "the list gives way to the notification")
        #expect(harness.screen.contains("Your card is on its way."))
        await harness.send(.escape)
        #expect(harness.top is NotificationsViewController)
        #expect(harness.screen.contains("Card shipped"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        // The badge follows the server's `notifications-changed`, the one way outside changes reach Home.
        harness.live.send(.event(.unreadChanged(0)))
        #expect(await harness.waitUntil { !harness.screen.contains("unread") }, "\(harness.screen)")
    }

    @Test("loading, then an error when the server cannot be reached")
    func loadingAndError() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        harness.notifications.listResult.set(.failure(.unreachable))
        harness.app.application.send(.character("n"))
        harness.app.application.render()
        assertSnapshot(of: harness.terminal, as: .screen, named: "notifications-loading")
        await harness.settle()
        assertSnapshot(of: harness.terminal, as: .screen, named: "notifications-error")
    }

    @Test("empty")
    func empty() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("n"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "notifications-empty")
    }

    @Test("Enter opens the selected notification: title, date and its whole text, wrapped; keys for the list go")
    func open() async throws {
        let long = "Alex Rivera sent you $12.50 with the note: for the tickets to Saturday's concert at the harbour, "
            + "and the train there and back. It is in your balance now, and the transaction is at the top of Home's list."
        let harness = ScreenHarness(session: Seeds.session) { harness in
            harness.notifications.listResult.set(.success([
                Seeds.notification,
                AppNotification(id: "n_2", title: "Money received", body: long, createdAt: Seeds.now.addingTimeInterval(-86400), read: false),
            ]))
        }
        try await harness.start()
        await harness.send(.character("n"))
        #expect(harness.terminal.lines.last?.hasPrefix(" Enter open  m mark all read  r reload  Esc back") == true)
        await harness.send(.down, .enter)
        #expect(harness.notifications.marked.all == ["n_2"])
        assertSnapshot(of: harness.terminal, as: .screen, named: "notifications-open")
        #expect(harness.screen.contains("Money received"))
        #expect(harness.screen.contains("21 Nov 2026 12:00"))
        #expect(harness.screen.contains("Home's list."), "the end of the text shows")
        #expect(harness.terminal.lines.last?.hasPrefix(" Esc back") == true)
        await harness.send(.character("m"))
        #expect(harness.notifications.marked.all == ["n_2"], "m acts on the list, not on an open notification")
        await harness.send(.escape)
        #expect(harness.top is NotificationsViewController)
        #expect(harness.screen.contains("1 unread"))
        await harness.send(.up, .enter)
        #expect(harness.screen.contains("Your card is on its way."))
        #expect(harness.notifications.marked.all == ["n_2", "n_1"])
    }
}
