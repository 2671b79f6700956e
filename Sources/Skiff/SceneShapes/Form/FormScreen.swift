import TerminalUI

/// The parts every form screen has, top to bottom: an introduction, a note (development codes, hints), the
/// confirmation's box (a staged form's), the form, its buttons (the one that acts styled as such), an error banner
/// and a spinner line, in a column of readable width centred on the screen; which input edits which field of the
/// scene's form, so focus moves, errors and focus requests are mapped in one place; and submitting, never twice at
/// once.
@MainActor
final class FormScreen<Field: Hashable & Sendable> {
    /// The widest a form is laid out, in columns: labels and fields read at a glance on a wide window.
    static var readableWidth: Int { 60 }
    /// What the scene puts on its screen.
    let view: ReadableColumn
    let stack = VStack(spacing: 1)
    let intro = Label("", style: .muted, overflow: .wrap)
    let note = Banner()
    let confirmation = ConfirmationPanel()
    let form = Form(spacing: 0)
    let buttons = HStack(spacing: 2)
    let error = Banner()
    let spinner = Spinner("Working…")
    private weak var owner: SceneViewController?
    /// The owner's key map, for the key that cancels.
    private let keys: WalletKeys
    /// Each field's input, and the row of the form its error goes under.
    private var inputs: [(field: Field, input: TextField, row: View)] = []
    /// The fields Enter left a message on (most often the server's, such as a number nobody has), with the hash of
    /// what each held then: not the text, which may be a password or a card number. Leaving a field runs only the
    /// app's own check of it, which knows nothing of the server's answer: it does not clear such a message while
    /// the field still holds what was sent.
    private var submittedErrors: [Field: Int] = [:]
    /// The fields whose rows are hidden.
    private var hiddenFields: Set<Field> = []
    /// Whether a request runs: the spinner turns and submitting does nothing.
    private(set) var isBusy = false
    /// Sends the form (Enter in a field, the form's button, a key binding), unless a request is running.
    var onSubmit: @MainActor () -> Void = {}
    /// The focus left the input of this field: check it.
    var onLeave: @MainActor (Field) -> Void = { _ in }

    /// `sections` go under the form, before the buttons; `owner` words the banners' key prompts.
    init(intro text: String, sections: [View] = [], owner: SceneViewController) {
        self.owner = owner
        keys = owner.keys
        intro.text = text
        stack.add(intro)
        stack.add(note)
        stack.add(confirmation.view)
        stack.add(form)
        for section in sections { stack.add(section) }
        stack.add(buttons, size: .fixed(1))
        stack.add(error)
        stack.add(spinner, size: .fixed(1))
        view = ReadableColumn(maxWidth: Self.readableWidth, content: stack)
        owner.onFocusLeave = { [weak self] view in
            guard let self, let field = field(editedBy: view) else { return }
            onLeave(field)
        }
    }

    /// Sends the form to `logic` when submitted, and each field as the person leaves it; `form` reads what the
    /// inputs hold.
    func connect<Logic: FormBusinessLogic>(_ logic: Logic, form: @escaping @MainActor () -> Logic.Form?)
    where Logic.Field == Field {
        onSubmit = { [weak logic] in
            guard let form = form() else { return }
            logic?.submit(request: .init(form: form))
        }
        onLeave = { [weak logic] field in
            guard let form = form() else { return }
            logic?.validateField(request: .init(field: field, form: form))
        }
    }

    /// The button that sends the form, styled as the one that acts; the scene adds it to `buttons` where it goes.
    func makeActionButton(_ title: String) -> Button {
        Button(title, isPrimary: true) { [weak self] in self?.submit() }
    }

    /// Puts an amount's input after its currency's sign ("$"), in the row the form shows; the sign follows the
    /// account's currency once the scene knows it (`currencySign.text`).
    func amountRow(_ input: TextField, sign: Label) -> HStack {
        let row = HStack(spacing: 1)
        row.add(sign)
        row.add(input, size: .fill)
        return row
    }

    /// Sends the form unless a request is already running.
    func submit() {
        guard !isBusy else { return }
        onSubmit()
    }

    /// Adds a labelled row editing `field`; `row` is what the form shows when the input sits inside a larger
    /// row (the input and a brand name, say). Enter in the input submits the form.
    func addField(_ field: Field, _ label: String, _ input: TextField, row: View? = nil) {
        form.addField(label, row ?? input)
        input.onSubmit = { [weak self] in self?.submit() }
        inputs.append((field, input, row ?? input))
    }

    /// The field a view edits, if it is one of the form's inputs.
    func field(editedBy view: View?) -> Field? {
        inputs.first { $0.input === view }?.field
    }

    /// The input that edits `field`.
    func input(for field: Field) -> TextField? {
        inputs.first { $0.field == field }?.input
    }

    /// Shows one field's error from its own check; nil clears it, unless Enter's message for the field stands and
    /// the field still holds what it held then.
    func setError(_ message: String?, for field: Field) {
        guard let entry = inputs.first(where: { $0.field == field }) else { return }
        if message == nil, let sent = submittedErrors[field], sent == entry.input.text.hashValue { return }
        submittedErrors[field] = nil
        form.setError(message, for: entry.row)
    }

    /// Shows the errors Enter came to and clears every other field's.
    func setErrors(_ messages: [Field: String]) {
        submittedErrors = [:]
        for entry in inputs {
            if messages[entry.field] != nil { submittedErrors[entry.field] = entry.input.text.hashValue }
            form.setError(messages[entry.field], for: entry.row)
        }
    }

    /// Hides or shows a field's row, keeping the label column where it is.
    func setRowHidden(_ hidden: Bool, for field: Field) {
        guard let entry = inputs.first(where: { $0.field == field }) else { return }
        if hidden { hiddenFields.insert(field) } else { hiddenFields.remove(field) }
        form.setRowHidden(hidden, for: entry.row)
    }

    /// Puts the cursor in the first shown field that is empty (a remembered number fills the first ones, so what is
    /// typed next goes where it is asked for), else in the first shown field.
    func focusFirstEmpty() {
        let shown = inputs.filter { !hiddenFields.contains($0.field) }
        owner?.focus((shown.first { $0.input.text.isEmpty } ?? shown.first)?.input)
    }

    /// Shows a banner message in the note (information) or the error strip (errors); nil clears the error.
    func show(_ message: BannerMessage?) {
        guard let message else {
            error.clear()
            return
        }
        let text = owner?.sentence(message.content) ?? message.text
        switch message.kind {
        case .info:
            note.show(text, kind: .info)
            error.clear()
        case .error:
            error.show(text, kind: .error)
        }
    }

    /// What Esc does to a running request, as the spinner says it: a request that changes nothing is cancelled;
    /// one that moves money has left, so Esc only stops the waiting, and `consequence` says what becomes of it.
    enum EscapeWhileBusy: Equatable {
        case cancels
        case stopsWaiting(consequence: String)
    }

    /// Shows what Enter came to: the spinner with `activity` while a request runs, the fields' errors, the
    /// banner, the introduction's new words; empties the inputs named and puts the cursor where asked.
    func display(_ viewModel: FormSubmitViewModel<Field>, activity: String, escape: EscapeWhileBusy = .cancels) {
        setBusy(viewModel.isBusy, activity, escape: escape)
        if let instructions = viewModel.instructions { intro.text = instructions }
        if let box = viewModel.confirmation { confirmation.show(box) }
        setErrors(viewModel.fieldErrors)
        show(viewModel.banner)
        for field in viewModel.clear { input(for: field)?.clear() }
        if let field = viewModel.focus { owner?.focus(input(for: field)) }
    }

    /// Turns the spinner on with `activity` ("Logging in…") and what Esc does to it, or off.
    func setBusy(_ busy: Bool, _ activity: String = "Working…", escape: EscapeWhileBusy = .cancels) {
        isBusy = busy
        let esc = keys.label(for: .back)
        spinner.title = switch escape {
        case .cancels: "\(activity) (\(esc) cancels)"
        case .stopsWaiting(let consequence): "\(activity) (\(esc) stops waiting; \(consequence))"
        }
        if busy { spinner.start() } else { spinner.stop() }
    }
}
