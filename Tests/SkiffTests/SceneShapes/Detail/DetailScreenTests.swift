import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Detail screen")
struct DetailScreenTests {
    let terminal = HeadlessTerminal(width: 60, height: 14, capabilities: .init(hasColor: false, isUnicode: true))
    let controller = SceneViewController(title: "")
    let screen = DetailScreen()

    private func start() throws -> Application {
        controller.view.addSubview(screen.panel)
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: controller))
        try app.start()
        return app
    }

    private var text: String { terminal.lines.joined(separator: "\n") }

    @Test("heading, rows and hint in a panel, the title in the breadcrumb; no hint, no hint line")
    func show() throws {
        let app = try start()
        let rows: [DetailContent.Row] = [.init(label: "Merchant", value: "Lyft"), .init(label: "Reference", value: "t_1")]
        screen.show(DetailContent(title: "Lyft", heading: "-$2.74", rows: rows), on: controller)
        app.render()
        #expect(controller.title == "Lyft")
        #expect(terminal.lines[2].contains("-$2.74"))
        #expect(terminal.lines[4].contains("Merchant   Lyft"))
        #expect(terminal.lines[5].contains("Reference  t_1"))
        #expect(terminal.lines[7].contains("│ ") && !terminal.lines[7].contains("Unfreeze"))
        screen.show(DetailContent(title: "Lyft", heading: "-$2.74", rows: rows, hint: "Unfreeze it on Cards."), on: controller)
        app.render()
        #expect(terminal.lines[7].contains("Unfreeze it on Cards."))
    }

    @Test("showing the item again (amounts blurred) changes the values in place, adding no row")
    func showAgain() throws {
        let app = try start()
        screen.show(DetailContent(title: "Lyft", heading: "-$2.74", rows: [.init(label: "Amount", value: "-$2.74")]), on: controller)
        app.render()
        screen.show(DetailContent(title: "Lyft", heading: "•••", rows: [.init(label: "Amount", value: "•••")]), on: controller)
        app.render()
        #expect(text.components(separatedBy: "Amount").count == 2, "one Amount row:\n\(text)")
        #expect(!text.contains("$2.74"))
        #expect(terminal.lines[4].contains("Amount  •••"))
    }
}
