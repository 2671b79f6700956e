import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Key prompts")
struct SceneViewControllerTests {
    @Test("a prompt names the key the screen bound to its command, and follows the binding when it changes")
    func followsBinding() {
        let sut = SceneViewController(title: "Test")
        sut.keyBindings = [sut.bind(.retry, .ctrl("r"), "retry") {}]
        let text = PromptedText("Can't reach the server.", prompts: [KeyPrompt(.retry, "retry")])
        #expect(sut.sentence(text) == "Can't reach the server. Press Ctrl-R to retry.")
        sut.keyBindings = [sut.bind(.retry, .function(5), "retry") {}]
        #expect(sut.sentence(text) == "Can't reach the server. Press F5 to retry.")
    }

    @Test("several prompts read as one sentence; Esc is always back; unbound commands are left out")
    func severalPrompts() {
        let sut = SceneViewController(title: "Test")
        sut.keyBindings = [sut.bind(.submit, .enter, "add") {}]
        let text = PromptedText("", prompts: [
            KeyPrompt(.submit, "add this card"), KeyPrompt(.back, "change it"), KeyPrompt(.refresh, "reload"),
        ])
        #expect(sut.sentence(text) == "Press Enter to add this card, or Esc to change it.")
    }
}
