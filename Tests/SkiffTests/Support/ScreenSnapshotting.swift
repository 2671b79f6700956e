import SnapshotTesting
import TerminalUI

extension Snapshotting where Value == HeadlessTerminal, Format == String {
    /// The whole last frame as lines of text, trailing spaces trimmed, with the spinner's animation frame
    /// replaced by `*` so a screen taken while a spinner turns stays the same; compared line by line.
    static var screen: Snapshotting {
        Snapshotting<String, String>.lines.pullback { terminal in
            MainActor.assumeIsolated { stillScreen(terminal.lines) }
        }
    }
}

/// The characters a Unicode terminal's spinner turns through.
private let spinnerFrames = Set(Glyphs.unicode.spinnerFrames.joined())

private func stillScreen(_ lines: [String]) -> String {
    lines.map { line in String(line.map { spinnerFrames.contains($0) ? "*" : $0 }) }.joined(separator: "\n") + "\n"
}
