/// What a key does on a screen, named so a Presenter's wording can point at it without knowing the key: the
/// screen's bindings say which key that is.
enum SceneCommand: Hashable, Sendable {
    case submit, retry, back, refresh, addCard, activateCard
    case logout
}

/// "Press <key> to <purpose>": the purpose is the Presenter's, the key the screen's binding for the command.
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
