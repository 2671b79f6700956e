import TerminalUI

/// What must hold after every key of a fuzzing walk, read from the application and its last frame.
@MainActor
enum FuzzInvariants {
    /// The first broken invariant, described; nil when all hold.
    ///
    /// `cardFlow` tells the screens where a security code could show (see `secretProblem`).
    static func problem(
        in application: Application, terminal: HeadlessTerminal, ledger: SecretLedger, cardFlow: (ViewController) -> Bool
    ) -> String? {
        if let problem = bufferProblem(terminal.buffer, size: terminal.size) { return problem }
        guard !application.isTooSmall else { return nil }
        if let problem = focusProblem(in: application) { return problem }
        return secretProblem(in: application, buffer: terminal.buffer, ledger: ledger, securityCodesShown: cardFlow)
    }

    // MARK: The frame

    /// The frame is the terminal's size and every cell is whole: a wide grapheme has its continuation beside it
    /// and inside the row, no continuation stands alone, and each cell's text is as wide as its cell says.
    static func bufferProblem(_ buffer: CellBuffer, size: Size) -> String? {
        guard buffer.size == size else { return "the frame is \(buffer.size) on a \(size) terminal" }
        guard buffer.cells.count == size.width * size.height else { return "the frame holds \(buffer.cells.count) cells for \(size)" }
        for y in 0..<size.height {
            var x = 0
            while x < size.width {
                let cell = buffer[x, y]
                switch cell.width {
                case 0:
                    return "a lone continuation cell at (\(x), \(y))"
                case 1, 2:
                    if cell.text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                        return "a control character drawn at (\(x), \(y))"
                    }
                    guard DisplayWidth.of(cell.text) == cell.width else {
                        return "the cell at (\(x), \(y)) holds \(cell.text.debugDescription), \(DisplayWidth.of(cell.text)) wide, in \(cell.width) columns"
                    }
                    if cell.width == 2 {
                        guard x + 1 < size.width else { return "a wide grapheme drawn past the right edge at row \(y)" }
                        guard buffer[x + 1, y].isContinuation else { return "a wide grapheme at (\(x), \(y)) without its continuation" }
                    }
                    x += cell.width
                default:
                    return "a cell \(cell.width) columns wide at (\(x), \(y))"
                }
            }
        }
        return nil
    }

    // MARK: Focus

    /// The visible screen's focused view is focusable, shown, inside the screen's view and wholly on screen
    /// (inside every ancestor, so no parent clips it away); a screen with focusable views has one focused.
    static func focusProblem(in application: Application) -> String? {
        let navigation = application.rootViewController as? NavigationController
        guard let screen = navigation?.visibleViewController ?? Optional(application.rootViewController) else { return nil }
        let name = String(describing: type(of: screen))
        guard let focused = screen.focusedView else {
            return screen.focusableViews.isEmpty ? nil : "\(name) has focusable views but none is focused"
        }
        let kind = String(describing: type(of: focused))
        guard focused.canFocus else { return "\(name) focuses a \(kind) that cannot take focus" }
        guard screen.view.contains(focused) else { return "\(name) focuses a \(kind) that is not in its view" }
        guard focused.isFocused else { return "\(name)'s focused \(kind) does not know it is focused" }
        var ancestor: View? = focused
        while let view = ancestor {
            if view.isHidden { return "\(name) focuses a \(kind) inside a hidden \(type(of: view))" }
            ancestor = view.superview
        }
        let frame = absoluteFrame(of: focused)
        guard !frame.isEmpty else { return "\(name)'s focused \(kind) has no room (\(frame))" }
        let screenRect = Rect(origin: .zero, size: application.terminal.size)
        guard frame.intersection(screenRect) == frame else { return "\(name)'s focused \(kind) at \(frame) is off screen" }
        guard frame.intersection(visibleArea(of: focused)) == frame else {
            return "\(name)'s focused \(kind) at \(frame) is clipped by its parents (visible: \(visibleArea(of: focused)))"
        }
        return nil
    }

    /// A view's frame in screen coordinates.
    static func absoluteFrame(of view: View) -> Rect {
        var frame = view.frame
        var parent = view.superview
        while let ancestor = parent {
            frame = frame.offsetBy(dx: ancestor.frame.minX, dy: ancestor.frame.minY)
            parent = ancestor.superview
        }
        return frame
    }

    /// The part of the screen a view's ancestors let it draw in.
    static func visibleArea(of view: View) -> Rect {
        var area = Rect(x: Int.min / 4, y: Int.min / 4, width: Int.max / 2, height: Int.max / 2)
        var parent = view.superview
        while let ancestor = parent {
            area = area.intersection(absoluteFrame(of: ancestor))
            parent = ancestor.superview
        }
        return area
    }

    // MARK: Secrets

    /// No frame shows a typed card number or security code, outside the text field being typed in. Security
    /// codes are looked for on the screens of the card flow (Add card, and Home where it lands), outside every
    /// field that is not secure: elsewhere the screens show server data with short numbers of its own (a
    /// transaction's reference), and a plain field holds whatever digits the walk typed there at random.
    static func secretProblem(
        in application: Application, buffer: CellBuffer, ledger: SecretLedger,
        securityCodesShown: (ViewController) -> Bool
    ) -> String? {
        guard !ledger.numbers.isEmpty else { return nil }
        let navigation = application.rootViewController as? NavigationController
        let screen = navigation?.visibleViewController ?? application.rootViewController
        let focusedField = (screen.focusedView as? TextField).map { clippedFrame(of: $0) }
        let fields = textFields(in: application.rootViewController.view).filter { !($0 is SecureField) }.map(clippedFrame)
        let shown = text(of: buffer, leavingOut: focusedField.map { [$0] } ?? [])
        if let leak = ledger.numberLeak(in: shown) { return "the frame shows \(leak)" }
        guard securityCodesShown(screen) else { return nil }
        let shownOutsideFields = text(of: buffer, leavingOut: (focusedField.map { [$0] } ?? []) + fields)
        return ledger.securityCodeLeak(in: shownOutsideFields).map { "the frame shows \($0)" }
    }

    private static func clippedFrame(of view: View) -> Rect {
        absoluteFrame(of: view).intersection(visibleArea(of: view))
    }

    private static func textFields(in view: View) -> [TextField] {
        guard !view.isHidden else { return [] }
        var fields: [TextField] = []
        if let field = view as? TextField { fields.append(field) }
        for subview in view.subviews { fields += textFields(in: subview) }
        return fields
    }

    /// The frame's rows joined by newlines, with the cells inside `excluded` shown as spaces.
    static func text(of buffer: CellBuffer, leavingOut excluded: [Rect]) -> String {
        var rows: [String] = []
        rows.reserveCapacity(buffer.size.height)
        for y in 0..<buffer.size.height {
            var row = ""
            for x in 0..<buffer.size.width {
                if excluded.contains(where: { $0.contains(Point(x: x, y: y)) }) {
                    row += " "
                } else {
                    row += buffer[x, y].text
                }
            }
            rows.append(row)
        }
        return rows.joined(separator: "\n")
    }
}
