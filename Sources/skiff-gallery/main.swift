import Foundation
import TerminalUI

// skiff-gallery: every TerminalUI view on its own screen, pushed from a menu.
// Hidden switch for end-to-end tests: SKIFF_GALLERY_TRAP=1 makes `!` on the menu trap deliberately.
// `--no-mouse` leaves the mouse to the terminal (text selection) instead of asking for mouse reports.

let environment = ProcessInfo.processInfo.environment
let menu = MenuViewController(allowsTrap: environment["SKIFF_GALLERY_TRAP"] == "1")
let navigation = NavigationController(root: menu)
let app = Application(
    terminal: CursesTerminal(environment: environment, reportsMouse: !CommandLine.arguments.contains("--no-mouse")),
    rootViewController: navigation, environment: environment)
do {
    let status = try await app.run()
    exit(status)
} catch {
    FileHandle.standardError.write(Data("skiff-gallery: \(error)\n".utf8))
    exit(1)
}
