/// Characters used to draw boxes.
public struct BorderSet: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    var topLeft: String
    var topRight: String
    var bottomLeft: String
    var bottomRight: String

    /// Unicode box-drawing lines.
    public static let unicode = BorderSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    /// Plain ASCII for terminals whose locale is not UTF-8.
    static let ascii = BorderSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}

/// The non-letter characters views draw with, in a Unicode and an ASCII flavour.
public struct Glyphs: Hashable, Sendable {
    public var border: BorderSet
    public var ellipsis: String
    public var bullet: String
    var breadcrumbSeparator: String
    public var spinnerFrames: [String]
    var barFull: String
    var barPartials: [String]
    public var rule: String
    public var check: String

    /// Box drawing, ellipsis, bullets and braille spinner.
    public static let unicode = Glyphs(
        border: .unicode, ellipsis: "…", bullet: "•", breadcrumbSeparator: " › ",
        spinnerFrames: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"],
        barFull: "█", barPartials: ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"], rule: "─", check: "✓")
    /// ASCII only.
    static let ascii = Glyphs(
        border: .ascii, ellipsis: "...", bullet: "*", breadcrumbSeparator: " > ",
        spinnerFrames: ["|", "/", "-", "\\"], barFull: "#", barPartials: [""], rule: "-", check: "+")
}

/// The look of every view: styles by role and the glyphs to draw with.
///
/// The colour themes are chosen to read on a dark and on a light background alike, since the kit cannot know
/// which the terminal has: text and titles keep the terminal's own foreground or a mid-tone, and a colour
/// background always carries its own foreground. Exactly one thing is filled with the highlight at a time (the
/// focused list row, bar or button); a selection the focus has left is only underlined.
public struct Theme: Hashable, Sendable {
    public var text: Style
    public var muted: Style
    public var title: Style
    public var header: Style
    public var border: Style
    var focusedBorder: Style
    public var field: Style
    public var focusedField: Style
    public var cursor: Style
    public var button: Style
    /// The button that acts (sends, logs in, adds): bold in the title's colour, never filled while unfocused.
    var primaryButton: Style
    var focusedButton: Style
    public var selection: Style
    var inactiveSelection: Style
    var statusBar: Style
    var statusKey: Style
    public var info: Style
    public var error: Style
    /// Inline error text (under a form field).
    public var errorText: Style
    public var success: Style
    public var bar: Style
    /// A value that adds (money in); a sign or a word must say it too, for whoever cannot see the colour.
    public var positive: Style
    var glyphs: Glyphs
    /// Whether the theme uses colours (false for monochrome terminals and `NO_COLOR`).
    var usesColor: Bool

    /// The 8 ANSI colours, for terminals without 256: bold never falls on black (many terminals draw bold black
    /// as grey), no text is drawn in blue, cyan or yellow over the default background (unreadable on black or on
    /// white), and unfocused borders keep the terminal's own foreground.
    static func colored(unicode: Bool = true) -> Theme {
        Theme(
            text: .plain,
            muted: Style(attributes: .dim),
            title: Style(attributes: .bold),
            header: Style(foreground: .white, background: .blue, attributes: .bold),
            border: .plain,
            focusedBorder: Style(foreground: .magenta, attributes: .bold),
            field: Style(attributes: .underline),
            focusedField: Style(attributes: [.underline, .bold]),
            cursor: Style(attributes: .reverse),
            button: .plain,
            primaryButton: Style(attributes: .bold),
            focusedButton: Style(foreground: .black, background: .cyan),
            selection: Style(foreground: .black, background: .cyan),
            inactiveSelection: Style(attributes: .underline),
            statusBar: Style(foreground: .white, background: .blue),
            statusKey: Style(foreground: .yellow, background: .blue, attributes: .bold),
            info: Style(foreground: .black, background: .cyan),
            error: Style(foreground: .white, background: .red, attributes: .bold),
            errorText: Style(foreground: .red, attributes: .bold),
            success: Style(foreground: .black, background: .green),
            bar: Style(foreground: .green),
            positive: Style(foreground: .green),
            glyphs: unicode ? .unicode : .ascii,
            usesColor: true)
    }

    /// The 256-colour palette, for terminals that have it: mid-tones that keep a contrast of at least 3:1 on a
    /// black and on a white background for borders, titles, bars and amounts, and white text on every filled
    /// background at 4:1 or more.
    static func colored256(unicode: Bool = true) -> Theme {
        let white = Color.palette(231), steelBlue = Color.palette(32), deepBlue = Color.palette(25)
        let darkGrey = Color.palette(238), grey = Color.palette(244), red = Color.palette(160), green = Color.palette(28)
        return Theme(
            text: .plain,
            muted: Style(foreground: grey),
            title: Style(foreground: steelBlue, attributes: .bold),
            header: Style(foreground: white, background: .palette(24), attributes: .bold),
            border: Style(foreground: grey),
            focusedBorder: Style(foreground: steelBlue, attributes: .bold),
            field: Style(attributes: .underline),
            focusedField: Style(attributes: [.underline, .bold]),
            cursor: Style(attributes: .reverse),
            button: .plain,
            primaryButton: Style(foreground: steelBlue, attributes: .bold),
            focusedButton: Style(foreground: white, background: deepBlue, attributes: .bold),
            selection: Style(foreground: white, background: deepBlue),
            inactiveSelection: Style(attributes: .underline),
            statusBar: Style(foreground: .palette(255), background: darkGrey),
            statusKey: Style(foreground: .palette(220), background: darkGrey, attributes: .bold),
            info: Style(foreground: white, background: .palette(31)),
            error: Style(foreground: white, background: red, attributes: .bold),
            errorText: Style(foreground: red, attributes: .bold),
            success: Style(foreground: white, background: green),
            bar: Style(foreground: green),
            positive: Style(foreground: green),
            glyphs: unicode ? .unicode : .ascii,
            usesColor: true)
    }

    /// Attributes only: bold, underline, reverse and dim carry every distinction.
    static func monochrome(unicode: Bool = true) -> Theme {
        Theme(
            text: .plain,
            muted: Style(attributes: .dim),
            title: Style(attributes: .bold),
            header: Style(attributes: [.reverse, .bold]),
            border: .plain,
            focusedBorder: Style(attributes: .bold),
            field: Style(attributes: .underline),
            focusedField: Style(attributes: [.underline, .bold]),
            cursor: Style(attributes: .reverse),
            button: .plain,
            primaryButton: Style(attributes: .bold),
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
            positive: Style(attributes: .bold),
            glyphs: unicode ? .unicode : .ascii,
            usesColor: false)
    }

    /// The theme a terminal supports: 256 colours when it has them, else the 8; monochrome when it has none, when
    /// `NO_COLOR` is set (unless `choice` asks for colour) or when `choice` is monochrome; ASCII unless UTF-8.
    static func forTerminal(_ capabilities: TerminalCapabilities, environment: [String: String], choice: ThemeChoice = .auto) -> Theme {
        let noColor = choice == .monochrome || (choice == .auto && !(environment["NO_COLOR"] ?? "").isEmpty)
        guard capabilities.hasColor && !noColor else { return .monochrome(unicode: capabilities.isUnicode) }
        return capabilities.colors >= 256 ? .colored256(unicode: capabilities.isUnicode) : .colored(unicode: capabilities.isUnicode)
    }
}

/// The palette a person asks for: the terminal's own choice (colour when it has colour and `NO_COLOR` is unset),
/// colour even under `NO_COLOR`, or none.
public enum ThemeChoice: String, Sendable, CaseIterable {
    case auto, color, monochrome
}
