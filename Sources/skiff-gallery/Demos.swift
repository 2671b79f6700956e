import Foundation
import TerminalUI

/// Labels: truncation, wrapping, alignment, and wide text.
@MainActor
final class LabelsViewController: ViewController {
    init() { super.init(title: "Labels") }

    override func viewDidLoad() {
        let stack = VStack(spacing: 1)
        stack.add(Label("Truncated: a sentence far too long for the narrow column it has been given, so it ends in an ellipsis rather than running off the edge of the screen"), size: .fixed(1))
        stack.add(Label("Wrapped: a sentence far too long for one line is broken at spaces onto as many lines as it needs, and the stack gives it exactly that many rows.", overflow: .wrap), size: .fit)
        stack.add(Label("Centred", style: .title, alignment: .center), size: .fixed(1))
        stack.add(Label("Right-aligned", style: .muted, alignment: .trailing), size: .fixed(1))
        stack.add(Label("Wide text: 漢字かな 한국어 😀 👨‍👩‍👧 👍🏽 🇫🇷 ❤️ — combining: e\u{301} a\u{308}"), size: .fixed(1))
        stack.add(Label("An error message in the error style", style: .errorText), size: .fixed(1))
        embed(stack)
    }
}

/// Text fields: a free-text field, a long number grouped in fours as typed, an expiry and a digits-only PIN.
@MainActor
final class TextFieldsViewController: ViewController {
    private let echo = Label("", style: .muted)

    init() { super.init(title: "Text fields") }

    override func viewDidLoad() {
        let name = TextField(placeholder: "Your name", maxLength: 40)
        let grouped = TextField(placeholder: "1234 5678 9012 3456", maxLength: 16)
        grouped.inputFilter = TextField.digitsOnly
        grouped.formatter = .grouping([4, 4, 4, 4])
        let expiry = TextField(placeholder: "MM/YY", maxLength: 4)
        expiry.inputFilter = TextField.digitsOnly
        expiry.formatter = .grouping([2, 2], separator: "/")
        let pin = TextField(placeholder: "digits only", maxLength: 6)
        pin.inputFilter = TextField.digitsOnly
        for field in [name, grouped, expiry, pin] {
            field.onChange = { [weak self] text in self?.echo.text = "Raw value: \(text)" }
        }
        let form = Form(spacing: 1)
        form.addField("Name", name)
        form.addField("Long number", grouped)
        form.addField("Expiry", expiry)
        form.addField("PIN", pin)
        let stack = VStack(spacing: 1)
        stack.add(form, size: .fit)
        stack.add(echo, size: .fixed(1))
        stack.add(Label("Ctrl-A/E start/end, Ctrl-U/K delete to start/end, Ctrl-W delete word. Press ? for every key.", style: .muted, overflow: .wrap), size: .fit)
        embed(stack)
    }
}

/// A secure field that shows bullets, with a button that wipes it.
@MainActor
final class SecureFieldViewController: ViewController {
    private let password = SecureField(placeholder: "password")
    private let status = Label("", style: .muted)

    init() { super.init(title: "Secure field") }

    override func viewDidLoad() {
        password.onChange = { [weak self] text in self?.status.text = "\(text.count) characters stored" }
        let clear = Button("Clear") { [weak self] in
            self?.password.clear()
            self?.status.text = "Cleared and wiped"
        }
        let form = Form()
        form.addField("Password", password)
        let stack = VStack(spacing: 1)
        stack.add(form, size: .fit)
        stack.add(clear, size: .fixed(1))
        stack.add(status, size: .fixed(1))
        embed(stack)
    }
}

/// Buttons in a row; pressing one reports it.
@MainActor
final class ButtonsViewController: ViewController {
    private let result = Label("Nothing pressed yet")

    init() { super.init(title: "Buttons") }

    override func viewDidLoad() {
        let row = HStack(spacing: 2)
        for title in ["OK", "Cancel", "Retry"] {
            row.add(Button(title) { [weak self] in self?.result.text = "Pressed: \(title)" }, size: .fit)
        }
        let disabled = Button("Disabled")
        disabled.isEnabled = false
        row.add(disabled, size: .fit)
        let stack = VStack(spacing: 1)
        stack.add(row, size: .fixed(1))
        stack.add(result, size: .fixed(1))
        embed(stack)
    }
}

/// A virtualised list that loads more rows when the selection nears the end.
@MainActor
final class ListDemoViewController: ViewController, ListViewDataSource {
    private let list = ListView()
    private let info = Label("", style: .muted)
    private var count = 100_000
    private var rowsAsked = 0

    init() { super.init(title: "List") }

    override func viewDidLoad() {
        list.dataSource = self
        list.onNearEnd = { [weak self] in
            guard let self else { return }
            self.count += 1000
            self.list.reloadData()
        }
        list.onSelectionChange = { [weak self] _ in self?.updateInfo() }
        let stack = VStack(spacing: 1)
        stack.add(Panel(title: "Transactions", content: list), size: .fill)
        stack.add(info, size: .fixed(1))
        embed(stack)
        updateInfo()
    }

    private func updateInfo() {
        info.text = "Row \((list.selectedIndex ?? 0) + 1) of \(count) · rows asked for so far: \(rowsAsked)"
    }

    func numberOfRows(in listView: ListView) -> Int {
        count
    }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        rowsAsked += 1
        let cents = (index * 7919) % 100_000
        return ListRow("Transaction #\(index + 1)", detail: String(format: "%d.%02d", cents / 100, cents % 100))
    }
}

/// Panels in horizontal and vertical stacks with fixed and flexible sizes.
@MainActor
final class StacksViewController: ViewController {
    init() { super.init(title: "Panels and stacks") }

    override func viewDidLoad() {
        let top = HStack(spacing: 1)
        top.add(Panel(title: "Fixed 20", content: Label("20 columns wide", overflow: .wrap)), size: .fixed(20))
        top.add(Panel(title: "Flexible 1", content: Label("one share of the rest", overflow: .wrap)), size: .flexible(1))
        top.add(Panel(title: "Flexible 2", content: Label("two shares of the rest", overflow: .wrap)), size: .flexible(2))
        let column = VStack(spacing: 0)
        column.add(Panel(title: "Fits its content", content: Label("one line")), size: .fit)
        column.add(Panel(title: "Fills the rest", content: Button("A focusable button")), size: .fill)
        let stack = VStack(spacing: 1)
        stack.add(top, size: .fixed(5))
        stack.add(column, size: .fill)
        embed(stack)
    }
}

/// A form that validates on Enter and shows errors under the fields.
@MainActor
final class FormViewController: ViewController {
    private let form = Form()
    private let email = TextField(placeholder: "name@example.com")
    private let phone = TextField(placeholder: "digits", maxLength: 15)
    private let password = SecureField(placeholder: "at least 8 characters")
    private let banner = Banner()

    init() { super.init(title: "Form") }

    override func viewDidLoad() {
        phone.inputFilter = TextField.digitsOnly
        form.addField("Email", email)
        form.addField("Phone", phone)
        form.addField("Password", password)
        let submit = Button("Submit") { [weak self] in self?.submit() }
        let stack = VStack(spacing: 1)
        stack.add(banner, size: .fit)
        stack.add(form, size: .fit)
        stack.add(submit, size: .fixed(1))
        embed(stack)
        keyBindings = [KeyBinding(.ctrl("s"), "submit") { [weak self] in self?.submit() }]
    }

    private func submit() {
        form.setError(email.text.contains("@") ? nil : "Enter an email address with an @.", for: email)
        form.setError(phone.text.count >= 7 ? nil : "A phone number has at least 7 digits.", for: phone)
        form.setError(password.text.count >= 8 ? nil : "Use at least 8 characters.", for: password)
        if form.error(for: email) == nil && form.error(for: phone) == nil && form.error(for: password) == nil {
            banner.show("Saved.", kind: .success)
        } else {
            banner.show("Some fields need attention.", kind: .error)
        }
    }
}

/// Presents an alert and reports the choice.
@MainActor
final class AlertDemoViewController: ViewController {
    private let result = Label("No choice yet")

    init() { super.init(title: "Alert") }

    override func viewDidLoad() {
        let show = Button("Show alert") { [weak self] in self?.showAlert() }
        let stack = VStack(spacing: 1)
        stack.add(show, size: .fixed(1))
        stack.add(result, size: .fixed(1))
        embed(stack)
    }

    private func showAlert() {
        let alert = AlertController(
            title: "Remove card",
            message: "Remove the card ending in 4242? This cannot be undone.",
            actions: [
                AlertAction("Cancel", isCancel: true) { [weak self] in self?.result.text = "Chose: Cancel" },
                AlertAction("Remove") { [weak self] in self?.result.text = "Chose: Remove" },
            ])
        navigationController?.present(alert)
    }
}

/// Starts async work with a spinner, then reports success or failure in a banner.
@MainActor
final class SpinnerViewController: ViewController {
    private let spinner = Spinner("Loading…")
    private let banner = Banner()
    private var fails = false

    init() { super.init(title: "Spinner and banner") }

    override func viewDidLoad() {
        let start = Button("Start work") { [weak self] in self?.startWork() }
        let toggle = Button("Toggle failure") { [weak self] in
            guard let self else { return }
            self.fails.toggle()
            self.banner.show(self.fails ? "The next run will fail." : "The next run will succeed.", kind: .info)
        }
        let row = HStack(spacing: 2)
        row.add(start, size: .fit)
        row.add(toggle, size: .fit)
        let stack = VStack(spacing: 1)
        stack.add(banner, size: .fit)
        stack.add(row, size: .fixed(1))
        stack.add(spinner, size: .fixed(1))
        embed(stack)
    }

    private func startWork() {
        banner.clear()
        spinner.start()
        let fails = fails
        task { [weak self] in
            try? await Task.sleep(nanoseconds: 1_500_000_000)
            guard let self else { return }
            self.spinner.stop()
            if fails {
                self.banner.show("Could not reach the server. Try again.", kind: .error)
            } else {
                self.banner.show("Done: 42 items loaded.", kind: .success)
            }
        }
    }
}

/// A bar chart of a small series.
@MainActor
final class ChartViewController: ViewController {
    init() { super.init(title: "Bar chart") }

    override func viewDidLoad() {
        let chart = BarChart(entries: [
            .init("Groceries", 412.5), .init("Transport", 120), .init("Rent", 950), .init("Fun", 86.25), .init("Savings", 300),
        ]) { String(format: "%.2f", $0) }
        embed(Panel(title: "Spending this month", content: chart))
    }
}

/// Shows the lifecycle calls it receives; pushes deeper, pops to root, and can intercept Esc.
@MainActor
final class NavigationDemoViewController: ViewController {
    private let depth: Int
    private let log = Label("", style: .muted, overflow: .wrap)
    private var events: [String] = []
    private var confirmsBack = false

    init(depth: Int) {
        self.depth = depth
        super.init(title: "Level \(depth)")
    }

    override func viewDidLoad() {
        record("viewDidLoad")
        let stack = VStack(spacing: 1)
        stack.add(Label("n pushes another level, r pops to the root, c makes Esc ask first."), size: .fit)
        stack.add(log, size: .fill)
        embed(stack)
        keyBindings = [
            KeyBinding(.character("n"), "push") { [weak self] in
                guard let self else { return }
                self.navigationController?.push(NavigationDemoViewController(depth: self.depth + 1))
            },
            KeyBinding(.character("r"), "pop to root") { [weak self] in self?.navigationController?.popToRoot() },
            KeyBinding(.character("c"), "confirm Esc") { [weak self] in
                guard let self else { return }
                self.confirmsBack.toggle()
                self.record(self.confirmsBack ? "Esc now asks first" : "Esc goes straight back")
            },
        ]
    }

    override func viewWillAppear() { record("viewWillAppear") }
    override func viewDidAppear() { record("viewDidAppear") }
    override func viewWillDisappear() { record("viewWillDisappear") }
    override func viewDidDisappear() { record("viewDidDisappear") }

    override func shouldGoBack() -> Bool {
        guard confirmsBack else { return true }
        let alert = AlertController(title: "Leave?", message: "Go back from level \(depth)?", actions: [
            AlertAction("Stay", isCancel: true),
            AlertAction("Leave") { [weak self] in self?.navigationController?.pop() },
        ])
        navigationController?.present(alert)
        return false
    }

    private func record(_ event: String) {
        events.append(event)
        log.text = "Lifecycle: " + events.suffix(12).joined(separator: ", ")
    }
}

/// Mouse reports as the kit decodes them: a pad that describes every event it gets, a button to click and a
/// list to click, double-click and scroll with the wheel.
@MainActor
final class MouseDemoViewController: ViewController, ListViewDataSource {
    private let pad = MousePad()
    private let result = Label("Click a button or a row; a second click on a row opens it.", style: .muted)
    private let list = ListView()

    init() { super.init(title: "Mouse") }

    override func viewDidLoad() {
        list.dataSource = self
        list.onSelect = { [weak self] index in self?.result.text = "Opened row \(index + 1)" }
        list.onSelectionChange = { [weak self] index in self?.result.text = "Selected row \(index + 1)" }
        let buttons = HStack(spacing: 2)
        for title in ["One", "Two"] {
            buttons.add(Button(title) { [weak self] in self?.result.text = "Clicked: \(title)" }, size: .fit)
        }
        let top = HStack(spacing: 1)
        top.add(Panel(title: "Pad", content: pad), size: .flexible(1))
        top.add(Panel(title: "Rows", content: list), size: .flexible(1))
        let stack = VStack(spacing: 1)
        stack.add(top, size: .fill)
        stack.add(buttons, size: .fixed(1))
        stack.add(result, size: .fixed(1))
        embed(stack)
    }

    func numberOfRows(in listView: ListView) -> Int {
        200
    }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        ListRow("Row \(index + 1)")
    }
}

/// Describes the last mouse event it received, in its own coordinates.
@MainActor
final class MousePad: View {
    private var lastEvent = "Click, drag or scroll here."

    override func handleMouse(_ event: MouseEvent) -> Bool {
        lastEvent = "\(Self.describe(event.kind)) at column \(event.location.x), row \(event.location.y)"
        if !event.modifiers.isEmpty {
            lastEvent += " with " + Self.describe(event.modifiers)
        }
        setNeedsDisplay()
        return true
    }

    override func draw(in canvas: Canvas) {
        canvas.write(lastEvent, x: 0, y: 0, style: canvas.theme.text, maxWidth: canvas.size.width)
    }

    private static func describe(_ kind: MouseEvent.Kind) -> String {
        switch kind {
        case .press(let button): return "\(button)".capitalized + " press"
        case .release(let button): return "\(button)".capitalized + " release"
        case .drag(let button): return "\(button)".capitalized + " drag"
        case .move: return "Move"
        case .wheelUp: return "Wheel up"
        case .wheelDown: return "Wheel down"
        }
    }

    private static func describe(_ modifiers: MouseEvent.Modifiers) -> String {
        [(MouseEvent.Modifiers.shift, "Shift"), (.alt, "Alt"), (.control, "Ctrl")]
            .filter { modifiers.contains($0.0) }.map(\.1).joined(separator: "-")
    }
}
