import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Key prompts")
struct SceneViewControllerTests {
    @Test("a prompt names the key the key map gives its command, once the screen binds the command")
    func followsKeyMap() {
        let standard = WalletKeys.standard
        let text = PromptedText("Can't reach the server.", prompts: [KeyPrompt(.retry, "retry")])
        let sut = SceneViewController(title: "Test", keys: standard)
        #expect(sut.sentence(text) == "Can't reach the server.")
        sut.keyBindings = [sut.bind(.retry) {}]
        #expect(sut.sentence(text) == "Can't reach the server. Press Ctrl-R to retry.")
        let remapped = WalletKeys { $0 == .retry ? .init(.function(5), "retry") : standard.entry(for: $0) }
        let other = SceneViewController(title: "Test", keys: remapped)
        other.keyBindings = [other.bind(.retry) {}]
        #expect(other.sentence(text) == "Can't reach the server. Press F5 to retry.")
        #expect(other.keyBindings.dispatch(.function(5)))
        #expect(!other.keyBindings.dispatch(.ctrl("r")))
    }

    @Test("several prompts read as one sentence; Esc is always back; unbound commands are left out")
    func severalPrompts() {
        let sut = SceneViewController(title: "Test", keys: .standard)
        sut.keyBindings = [sut.bind(.submit, "add") {}]
        let text = PromptedText("", prompts: [
            KeyPrompt(.submit, "add this card"), KeyPrompt(.back, "change it"), KeyPrompt(.refresh, "reload"),
        ])
        #expect(sut.sentence(text) == "Press Enter to add this card, or Esc to change it.")
    }

    @Test("a binding takes its keys and help from the key map; a screen may word the help its own way")
    func bindingFromMap() {
        let sut = SceneViewController(title: "Test", keys: .standard)
        let plain = sut.bind(.markAllRead) {}
        #expect(plain.keys == [.character("m")] && plain.help == "mark all read")
        let worded = sut.bind(.submit, "log in") {}
        #expect(worded.keys == [.enter] && worded.help == "log in")
    }
}
