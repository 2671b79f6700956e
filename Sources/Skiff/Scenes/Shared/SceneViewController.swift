import TerminalUI

/// The base of every wallet screen: tells the subclass when the focus leaves a view (to check that field),
/// and turns Esc into a request the Interactor decides on (cancel a running request, step back, or leave).
@MainActor
open class SceneViewController: ViewController {
    /// Called after a key moved the focus away from `previous`.
    open func focusDidMove(from previous: View?) {}

    /// Esc: the scene decides through its Interactor; the coordinator pops when the Interactor routes away.
    open func escapePressed() {}

    open override func handle(_ key: Key) -> Bool {
        let previous = focusedView
        var handled = super.handle(key)
        if let previous, previous !== focusedView {
            focusDidMove(from: previous)
        }
        if !handled && key == .escape {
            // Also on a root screen, where the navigation controller has nothing to pop.
            escapePressed()
            handled = true
        }
        return handled
    }

    open override func shouldGoBack() -> Bool {
        escapePressed()
        return false
    }
}

/// The parts every form screen has, top to bottom: an introduction, a note (development codes, hints), the
/// form, its buttons, an error banner and a spinner line.
@MainActor
final class FormScreen {
    let stack = VStack(spacing: 1)
    let intro = Label("", style: .muted, overflow: .wrap)
    let note = Banner()
    let form = Form(spacing: 0)
    let buttons = HStack(spacing: 2)
    let error = Banner()
    let spinner = Spinner("Working…")

    /// `sections` go under the form, before the buttons.
    init(intro text: String, sections: [View] = []) {
        intro.text = text
        stack.add(intro)
        stack.add(note)
        stack.add(form)
        for section in sections { stack.add(section) }
        stack.add(buttons, size: .fixed(1))
        stack.add(error)
        stack.add(spinner, size: .fixed(1))
    }

    /// Shows a banner message in the note (information) or the error strip (errors); nil clears the error.
    func show(_ message: BannerMessage?) {
        guard let message else {
            error.clear()
            return
        }
        switch message.kind {
        case .info:
            note.show(message.text, kind: .info)
            error.clear()
        case .error:
            error.show(message.text, kind: .error)
        }
    }

    func setBusy(_ busy: Bool, _ title: String = "Working… (Esc cancels)") {
        spinner.title = title
        if busy { spinner.start() } else { spinner.stop() }
    }
}

extension TextField {
    /// A field that takes only ASCII digits.
    static func digits(_ text: String = "", placeholder: String = "", maxLength: Int) -> TextField {
        let field = TextField(text: text, placeholder: placeholder, maxLength: maxLength)
        field.inputFilter = { ("0"..."9").contains($0) }
        return field
    }
}
