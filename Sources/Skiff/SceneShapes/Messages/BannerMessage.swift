/// A line shown above or below a form: information or an error.
struct BannerMessage: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case info, error }
    var kind: Kind
    var content: PromptedText

    init(_ kind: Kind, _ text: String, prompts: [KeyPrompt] = []) {
        self.kind = kind
        content = PromptedText(text, prompts: prompts)
    }

    /// The words before any key prompt.
    var text: String { content.text }
}
