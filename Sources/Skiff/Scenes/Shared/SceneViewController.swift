import TerminalUI

/// The base of every wallet screen: tells its form when the focus leaves a view (to check that field),
/// turns Esc into a request the Interactor decides on (cancel a running request, step back, or leave), and
/// words key prompts with the keys this screen really binds.
@MainActor
class SceneViewController: ViewController {
    /// The app's key map: every binding of this screen is made from it.
    let keys: WalletKeys
    /// The commands this screen binds; Esc always means `.back`.
    private var boundCommands: Set<SceneCommand> = [.back]

    /// Called after a key moved the focus away from a view (a form checks that field).
    var onFocusLeave: @MainActor (View) -> Void = { _ in }

    init(title: String, keys: WalletKeys = .standard) {
        self.keys = keys
        super.init(title: title)
    }

    /// Esc: the scene decides through its Interactor; the coordinator pops when the Interactor routes away.
    func escapePressed() {}

    /// A binding for `command` with its keys from the key map: the same data drives the key, the status bar, the
    /// help overlay and every sentence that names the command's key. `help` words what it does on this screen
    /// when that says more than the map's help ("log in" for a submit).
    func bind(
        _ command: SceneCommand, _ help: String? = nil, showsInStatusBar: Bool = true,
        action: @escaping @MainActor () -> Void
    ) -> KeyBinding {
        boundCommands.insert(command)
        return keys.binding(command, help: help, showsInStatusBar: showsInStatusBar, action: action)
    }

    /// A command whose keys something else handles (a list's Enter), shown in the status bar and the help overlay.
    func describe(_ command: SceneCommand, _ help: String? = nil, showsInStatusBar: Bool = false) -> KeyBinding {
        boundCommands.insert(command)
        return keys.described(command, help: help, showsInStatusBar: showsInStatusBar)
    }

    /// The commands bound where this controller shows: its own, and those of the screen hosting it (a part of Home
    /// names Home's keys).
    private var screenCommands: Set<SceneCommand> {
        boundCommands.union((parent as? SceneViewController)?.screenCommands ?? [])
    }

    /// The text with its prompts: "Can't reach the server. Press Ctrl-R to retry." A prompt for a command this
    /// screen does not bind is left out.
    func sentence(_ text: PromptedText) -> String {
        let commands = screenCommands
        let prompts = text.prompts.filter { commands.contains($0.command) }.map {
            "\(keys.label(for: $0.command)) to \($0.purpose)"
        }
        guard !prompts.isEmpty else { return text.text }
        let press = "Press " + prompts.joined(separator: ", or ") + "."
        return text.text.isEmpty ? press : text.text + " " + press
    }

    /// A screen's status lines: `message` in `banner`, worded with this screen's keys (cleared when nil), and
    /// `spinner` turning with `busy` while something runs.
    func showStatus(_ message: BannerMessage?, in banner: Banner, busy: String?, spinner: Spinner) {
        if let message {
            banner.show(sentence(message.content), kind: message.kind == .error ? .error : .info)
        } else {
            banner.clear()
        }
        if let busy {
            spinner.title = busy
            spinner.start()
        } else {
            spinner.stop()
        }
    }

    override func handle(_ key: Key) -> Bool {
        let previous = focusedView
        var handled = super.handle(key)
        if let previous, previous !== focusedView {
            onFocusLeave(previous)
        }
        if !handled && keys.matches(key, .back) {
            // Also on a root screen, where the navigation controller has nothing to pop.
            escapePressed()
            handled = true
        }
        if !handled && keys.matches(key, .quitWhileTyping) {
            // Every screen quits with the key that works while typing, as Login does, whatever it binds.
            application?.quit()
            handled = true
        }
        return handled
    }

    /// The screen's keys for `?`, with the quit key every screen takes (unless the screen binds it itself).
    override var helpBindings: [KeyBinding] {
        let bindings = super.helpBindings
        let quit = keys.keys(for: .quitWhileTyping)
        guard !bindings.contains(where: { $0.keys == quit }) else { return bindings }
        return bindings + [keys.described(.quitWhileTyping)]
    }

    override func shouldGoBack() -> Bool {
        escapePressed()
        return false
    }
}
