import Testing
@testable import TerminalUI

@Suite("Alert focus")
@MainActor
struct AlertFocusTests {
    @Test("An alert opens on its cancel button wherever it stands, so Enter at once cancels; Left reaches the other")
    func cancelFocusedFirst() throws {
        let sut = NavigationController(root: ViewController(title: "Cards"))
        let (app, _) = try makeApp(sut, width: 50, height: 14)
        var chosen: [String] = []
        let alert = AlertController(title: "Remove card", message: "Remove Visa •••• 4242 from your account?", actions: [
            AlertAction("Remove") { chosen.append("remove") },
            AlertAction("Keep", isCancel: true) { chosen.append("keep") },
        ])
        sut.present(alert)
        app.render()
        #expect((alert.focusedView as? Button)?.title == "Keep")
        app.send(.enter)
        #expect(chosen == ["keep"])
        #expect(sut.presentedViewControllers.isEmpty)

        sut.present(alert)
        app.send(.left)
        #expect((alert.focusedView as? Button)?.title == "Remove")
        app.send(.escape)
        #expect(chosen == ["keep", "keep"])

        sut.present(alert)
        app.render()
        #expect((alert.focusedView as? Button)?.title == "Keep", "presented again, it opens on cancel again")
        app.send(.left)
        app.send(.enter)
        #expect(chosen == ["keep", "keep", "remove"])
    }

    @Test("An alert without a cancel action opens on its first button")
    func firstWithoutCancel() throws {
        let sut = NavigationController(root: ViewController(title: "Home"))
        let (app, _) = try makeApp(sut, width: 50, height: 14)
        var chosen: [String] = []
        let alert = AlertController(title: "Saved", message: "Your changes were saved.", actions: [
            AlertAction("OK") { chosen.append("ok") },
            AlertAction("Undo") { chosen.append("undo") },
        ])
        sut.present(alert)
        app.render()
        app.send(.enter)
        #expect(chosen == ["ok"])
    }
}
