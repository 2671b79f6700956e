import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Notifications screen", .timeLimit(.minutes(3)))
struct NotificationsScreenTests {
    @Test("filled: unread marked; Enter marks read; Esc brings the count to Home")
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
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(!harness.screen.contains("unread"))
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
}
