/// "Press <key> to <purpose>": the purpose is the Presenter's, the key the key map's for the command (when the
/// screen binds it).
struct KeyPrompt: Hashable, Sendable {
    var command: SceneCommand
    var purpose: String

    init(_ command: SceneCommand, _ purpose: String) {
        self.command = command
        self.purpose = purpose
    }
}

/// A sentence followed by the keys that act on it, worded by the screen (`SceneViewController.sentence`).
struct PromptedText: Hashable, Sendable {
    var text: String
    var prompts: [KeyPrompt]

    init(_ text: String, prompts: [KeyPrompt] = []) {
        self.text = text
        self.prompts = prompts
    }
}
