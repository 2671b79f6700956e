import Foundation
import TerminalUI

extension HeadlessTerminal {
    /// The screen's words as a person reads them: each line trimmed, the lines run together with one space, so a
    /// sentence wrapped across lines of a form's readable column is found whole.
    var prose: String {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
