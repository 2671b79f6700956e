/// A terminal colour: one of the 8 (or 16) ANSI colours, one of a 256-colour terminal's palette, or the
/// terminal's default.
public struct Color: Hashable, Sendable {
    /// The ANSI index, or -1 for the terminal's default colour.
    public let index: Int16

    public init(index: Int16) {
        self.index = index
    }

    public static let `default` = Color(index: -1)
    static let black = Color(index: 0)
    static let red = Color(index: 1)
    static let green = Color(index: 2)
    static let yellow = Color(index: 3)
    static let blue = Color(index: 4)
    static let magenta = Color(index: 5)
    static let cyan = Color(index: 6)
    static let white = Color(index: 7)

    /// Colour `index` (0-255) of a 256-colour terminal's palette: 16-231 a 6×6×6 cube, 232-255 greys.
    static func palette(_ index: Int16) -> Color { Color(index: index) }
}

/// Text attributes that also work on a monochrome terminal.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    static let bold = TextAttributes(rawValue: 1 << 0)
    static let dim = TextAttributes(rawValue: 1 << 1)
    static let underline = TextAttributes(rawValue: 1 << 2)
    static let reverse = TextAttributes(rawValue: 1 << 3)
}

/// How a cell looks: foreground, background and attributes.
public struct Style: Hashable, Sendable {
    var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style with extra attributes.
    public func adding(_ extra: TextAttributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// This style with the colours removed, for monochrome terminals.
    var withoutColor: Style {
        Style(attributes: attributes)
    }
}
