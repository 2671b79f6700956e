import TerminalUI

/// A staged form's confirmation as its Presenter words it: the question the box is titled with ("Send $12.50 to
/// Jordan R.?") and the facts under it, one row each. Every confirmation is shown in the same box
/// (`ConfirmationPanel`), in place of the form's fields, so it never looks like the form it confirms.
struct FormConfirmation: Hashable, Sendable {
    var title: String
    var rows: [DetailContent.Row]
}

/// The box a confirmation is shown in: its question as the title, a row for each fact with the value in bold.
@MainActor
final class ConfirmationPanel {
    private let rows = Form(spacing: 0)
    let view: Panel

    init() {
        view = Panel(title: nil, content: rows)
        view.isHidden = true
    }

    /// Fills the box with `confirmation`'s words and shows it.
    func show(_ confirmation: FormConfirmation) {
        view.title = confirmation.title
        rows.removeAllFields()
        for row in confirmation.rows { rows.addField(row.label, Label(row.value, style: .title)) }
        view.isHidden = false
    }

    func hide() {
        view.isHidden = true
    }
}
