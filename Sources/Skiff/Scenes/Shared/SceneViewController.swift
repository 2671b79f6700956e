import TerminalUI

/// The base of every wallet screen: tells its form when the focus leaves a view (to check that field),
/// turns Esc into a request the Interactor decides on (cancel a running request, step back, or leave), and
/// words key prompts with the keys this screen really binds.
@MainActor
class SceneViewController: ViewController {
    /// The key each command is bound to on this screen; Esc always means `.back`.
    private var commandKeys: [SceneCommand: Key] = [.back: .escape]

    /// Called after a key moved the focus away from a view (a form checks that field).
    var onFocusLeave: @MainActor (View) -> Void = { _ in }

    /// Esc: the scene decides through its Interactor; the coordinator pops when the Interactor routes away.
    func escapePressed() {}

    /// A binding for `command`: the same data drives the key, the status bar, the help overlay and every
    /// sentence that names the command's key.
    func bind(
        _ command: SceneCommand, _ key: Key, _ help: String, showsInStatusBar: Bool = true,
        action: @escaping @MainActor () -> Void
    ) -> KeyBinding {
        commandKeys[command] = key
        return KeyBinding(key, help, showsInStatusBar: showsInStatusBar, action: action)
    }

    /// The text with its prompts: "Can't reach the server. Press Ctrl-R to retry." A prompt for a command this
    /// screen does not bind is left out.
    func sentence(_ text: PromptedText) -> String {
        let prompts = text.prompts.compactMap { prompt in
            commandKeys[prompt.command].map { "\($0.label) to \(prompt.purpose)" }
        }
        guard !prompts.isEmpty else { return text.text }
        let press = "Press " + prompts.joined(separator: ", or ") + "."
        return text.text.isEmpty ? press : text.text + " " + press
    }

    override func handle(_ key: Key) -> Bool {
        let previous = focusedView
        var handled = super.handle(key)
        if let previous, previous !== focusedView {
            onFocusLeave(previous)
        }
        if !handled && key == .escape {
            // Also on a root screen, where the navigation controller has nothing to pop.
            escapePressed()
            handled = true
        }
        return handled
    }

    override func shouldGoBack() -> Bool {
        escapePressed()
        return false
    }
}
