import TerminalUI

/// The parts every detail screen has, in one panel, top to bottom: the heading, the item's labelled rows and a
/// hint (left out when there is none). Showing content again (amounts blurred or shown) changes the values in
/// place: a detail screen's rows keep their labels.
@MainActor
final class DetailScreen {
    /// What the screen adds to its view.
    let panel: Panel
    private let stack = VStack(spacing: 1)
    private let heading = Label("", style: .title)
    private let details = Form(spacing: 0)
    private let hint = Label("", style: .muted)
    private var values: [Label] = []

    init() {
        stack.add(heading, size: .fixed(1))
        stack.add(details)
        stack.add(hint, size: .fixed(1))
        panel = Panel(title: nil, content: stack)
    }

    /// Shows `content`, and names `owner` after it in the breadcrumb.
    func show(_ content: DetailContent, on owner: ViewController) {
        owner.title = content.title
        heading.text = content.heading
        for (index, row) in content.rows.enumerated() {
            if values.indices.contains(index) {
                values[index].text = row.value
            } else {
                let value = Label(row.value)
                values.append(value)
                details.addField(row.label, value)
            }
        }
        hint.text = content.hint ?? ""
        hint.isHidden = content.hint == nil
    }
}
