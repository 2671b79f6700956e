/// Characters used to draw boxes.
public struct BorderSet: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String

    /// Unicode box-drawing lines.
    public static let unicode = BorderSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    /// Plain ASCII for terminals whose locale is not UTF-8.
    public static let ascii = BorderSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}

/// The non-letter characters views draw with, in a Unicode and an ASCII flavour.
public struct Glyphs: Hashable, Sendable {
    public var border: BorderSet
    public var ellipsis: String
    public var bullet: String
    public var breadcrumbSeparator: String
    public var spinnerFrames: [String]
    public var barFull: String
    public var barPartials: [String]
    public var rule: String
    public var check: String

    /// Box drawing, ellipsis, bullets and braille spinner.
    public static let unicode = Glyphs(
        border: .unicode, ellipsis: "…", bullet: "•", breadcrumbSeparator: " › ",
        spinnerFrames: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"],
        barFull: "█", barPartials: ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"], rule: "─", check: "✓")
    /// ASCII only.
    public static let ascii = Glyphs(
        border: .ascii, ellipsis: "...", bullet: "*", breadcrumbSeparator: " > ",
        spinnerFrames: ["|", "/", "-", "\\"], barFull: "#", barPartials: [""], rule: "-", check: "+")
}

/// The look of every view: styles by role and the glyphs to draw with.
public struct Theme: Hashable, Sendable {
    public var text: Style
    public var muted: Style
    public var title: Style
    public var header: Style
    public var border: Style
    public var focusedBorder: Style
    public var field: Style
    public var focusedField: Style
    public var cursor: Style
    public var button: Style
    public var focusedButton: Style
    public var selection: Style
    public var inactiveSelection: Style
    public var statusBar: Style
    public var statusKey: Style
    public var info: Style
    public var error: Style
    /// Inline error text (under a form field).
    public var errorText: Style
    public var success: Style
    public var bar: Style
    public var glyphs: Glyphs
    /// Whether the theme uses colours (false for monochrome terminals and `NO_COLOR`).
    public var usesColor: Bool

    /// Colours over the terminal's default background.
    public static func colored(unicode: Bool = true) -> Theme {
        Theme(
            text: .plain,
            muted: Style(attributes: .dim),
            title: Style(foreground: .cyan, attributes: .bold),
            header: Style(foreground: .black, background: .cyan),
            border: Style(foreground: .blue),
            focusedBorder: Style(foreground: .cyan, attributes: .bold),
            field: Style(attributes: .underline),
            focusedField: Style(foreground: .yellow, attributes: .underline),
            cursor: Style(attributes: .reverse),
            button: .plain,
            focusedButton: Style(foreground: .black, background: .cyan, attributes: .bold),
            selection: Style(foreground: .black, background: .cyan),
            inactiveSelection: Style(attributes: .reverse),
            statusBar: Style(foreground: .white, background: .blue),
            statusKey: Style(foreground: .yellow, background: .blue, attributes: .bold),
            info: Style(foreground: .black, background: .cyan),
            error: Style(foreground: .white, background: .red, attributes: .bold),
            errorText: Style(foreground: .red, attributes: .bold),
            success: Style(foreground: .black, background: .green),
            bar: Style(foreground: .green),
            glyphs: unicode ? .unicode : .ascii,
            usesColor: true)
    }

    /// Attributes only: bold, underline, reverse and dim carry every distinction.
    public static func monochrome(unicode: Bool = true) -> Theme {
        Theme(
            text: .plain,
            muted: Style(attributes: .dim),
            title: Style(attributes: .bold),
            header: Style(attributes: .reverse),
            border: .plain,
            focusedBorder: Style(attributes: .bold),
            field: Style(attributes: .underline),
            focusedField: Style(attributes: [.underline, .bold]),
            cursor: Style(attributes: .reverse),
            button: .plain,
            focusedButton: Style(attributes: [.reverse, .bold]),
            selection: Style(attributes: .reverse),
            inactiveSelection: Style(attributes: .underline),
            statusBar: Style(attributes: .reverse),
            statusKey: Style(attributes: [.reverse, .bold]),
            info: Style(attributes: .reverse),
            error: Style(attributes: [.reverse, .bold]),
            errorText: Style(attributes: .bold),
            success: Style(attributes: .reverse),
            bar: .plain,
            glyphs: unicode ? .unicode : .ascii,
            usesColor: false)
    }

    /// The theme a terminal supports: colour unless it has none or `NO_COLOR` is set, ASCII unless UTF-8.
    public static func forTerminal(_ capabilities: TerminalCapabilities, environment: [String: String]) -> Theme {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        if capabilities.hasColor && !noColor {
            return .colored(unicode: capabilities.isUnicode)
        }
        return .monochrome(unicode: capabilities.isUnicode)
    }
}
