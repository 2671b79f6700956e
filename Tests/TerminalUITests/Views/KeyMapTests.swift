import Testing
@testable import TerminalUI

@MainActor
@Suite("Key map")
struct KeyMapTests {
    enum Command: CaseIterable, Hashable, Sendable { case save, quit, up }

    let sut = KeyMap<Command> { command in
        switch command {
        case .save: .init(.ctrl("s"), "save")
        case .quit: .init(.character("q"), "quit")
        case .up: .init([.up, .character("k")], "move up")
        }
    }

    @Test("each command has its keys, its label as a person reads it, and its help")
    func entries() {
        #expect(sut.keys(for: .up) == [.up, .character("k")])
        #expect(sut.label(for: .up) == "↑/k")
        #expect(sut.label(for: .save) == "Ctrl-S")
        #expect(sut.entry(for: .quit).help == "quit")
        #expect(sut.matches(.character("k"), .up) && !sut.matches(.character("k"), .quit))
    }

    @Test("a binding made from the map dispatches on the map's keys, with the map's help or the screen's own")
    func bindings() {
        var ran = 0
        let bindings = [sut.binding(.up) { ran += 1 }, sut.binding(.save, help: "save the draft") {}]
        #expect(bindings[0].keyLabel == "↑/k" && bindings[0].help == "move up")
        #expect(bindings[1].help == "save the draft")
        #expect(bindings.dispatch(.character("k")))
        #expect(bindings.dispatch(.up))
        #expect(ran == 2)
        #expect(!bindings.dispatch(.character("q")))
    }

    @Test("a described command shows its keys but never consumes them")
    func described() {
        let bindings = [sut.described(.quit, showsInStatusBar: true)]
        #expect(bindings[0].keyLabel == "q" && bindings[0].showsInStatusBar)
        #expect(!bindings.dispatch(.character("q")))
    }
}
