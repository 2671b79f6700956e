/// A button of an alert and what it does.
public struct AlertAction {
    public var title: String
    /// Whether Esc picks this action.
    public var isCancel: Bool
    public var handler: (@MainActor () -> Void)?

    public init(_ title: String, isCancel: Bool = false, handler: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.isCancel = isCancel
        self.handler = handler
    }
}

/// A modal message with buttons; present it with `NavigationController.present(_:)`.
///
/// Choosing a button dismisses the alert and then runs the button's handler; Esc runs the cancel action. The
/// alert opens with the focus on its cancel action's button (else the first), so an Enter pressed straight away
/// never does what the alert asks about.
@MainActor
open class AlertController: ViewController {
    public let message: String
    public let actions: [AlertAction]
    private var buttons: [Button] = []

    public init(title: String, message: String, actions: [AlertAction] = [AlertAction("OK")]) {
        self.message = message
        self.actions = actions.isEmpty ? [AlertAction("OK")] : actions
        super.init(title: title)
    }

    open override func loadView() -> View {
        AlertView()
    }

    open override func viewDidLoad() {
        guard let alertView = view as? AlertView else { return }
        alertView.title = title
        alertView.message = message
        for action in actions {
            let button = Button(action.title) { [weak self] in self?.choose(action) }
            buttons.append(button)
            alertView.addSubview(button)
        }
        keyBindings = [
            KeyBinding([.left], "previous button", showsInStatusBar: false) { [weak self] in self?.focusPrevious() },
            KeyBinding([.right], "next button", showsInStatusBar: false) { [weak self] in self?.focusNext() },
        ]
    }

    /// Each time the alert comes on screen, the focus starts on the cancel action's button, else the first.
    open override func viewWillAppear() {
        focus(actions.firstIndex(where: \.isCancel).map { buttons[$0] } ?? buttons.first)
    }

    open override func shouldGoBack() -> Bool {
        let cancel = actions.first(where: \.isCancel)
        navigationController?.dismiss()
        cancel?.handler?()
        return false
    }

    private func choose(_ action: AlertAction) {
        navigationController?.dismiss()
        action.handler?()
    }

    /// The width of the button row.
    private var buttonsWidth: Int {
        buttons.map { $0.label.displayWidth }.reduce(0, +) + 2 * max(0, buttons.count - 1)
    }

    override func preferredContentSize(in available: Size) -> Size? {
        let longest = max(message.split(separator: "\n").map { String($0).displayWidth }.max() ?? 0, title.displayWidth + 4, buttonsWidth)
        let width = min(available.width, max(30, longest + 4))
        let lines = message.wrapped(toWidth: max(1, width - 4)).count
        return Size(width: width, height: min(available.height, lines + 5))
    }

    open override var helpBindings: [KeyBinding] {
        [.described([.enter], "choose"), .described([.escape], "cancel")] + keyBindings
    }
}

/// The alert's box: border and title, wrapped message, buttons centred at the bottom.
@MainActor
final class AlertView: View {
    var title = ""
    var message = ""

    override func layoutSubviews() {
        let buttons = subviews.compactMap { $0 as? Button }
        let total = buttons.map { $0.label.displayWidth }.reduce(0, +) + 2 * max(0, buttons.count - 1)
        var x = max(1, (bounds.width - total) / 2)
        for button in buttons {
            let width = button.label.displayWidth
            button.frame = Rect(x: x, y: bounds.height - 2, width: width, height: 1)
            x += width + 2
        }
    }

    override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(style: theme.text)
        canvas.drawBorder(style: theme.focusedBorder, title: title, titleStyle: theme.title)
        for (row, line) in message.wrapped(toWidth: max(1, canvas.size.width - 4)).enumerated()
        where row + 2 < canvas.size.height - 2 {
            canvas.write(line, x: 2, y: row + 2, style: theme.text)
        }
    }
}
