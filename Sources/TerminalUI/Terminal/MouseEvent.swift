/// A mouse report from the terminal: what happened, with which button and modifiers, and where.
///
/// `location` is 0-based; the application hands views a copy with `location` in their own coordinates.
public struct MouseEvent: Hashable, Sendable {
    /// A mouse button.
    public enum Button: Hashable, Sendable {
        case left, middle, right
    }

    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        /// A button went down.
        case press(Button)
        /// A button came up (SGR reports say which one).
        case release(Button)
        /// The mouse moved while a button was held (mode 1002).
        case drag(Button)
        /// The mouse moved with no button held (only reported in mode 1003, which Skiff does not enable).
        case move
        case wheelUp
        case wheelDown
    }

    /// Keys held during the event.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let shift = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let control = Modifiers(rawValue: 4)
    }

    public var kind: Kind
    public var location: Point
    public var modifiers: Modifiers

    public init(_ kind: Kind, at location: Point, modifiers: Modifiers = []) {
        self.kind = kind
        self.location = location
        self.modifiers = modifiers
    }

    /// Whether this is a press of the left button without modifiers: a click.
    var isClick: Bool {
        kind == .press(.left) && modifiers.isEmpty
    }

    /// The same event at another location (for handing it to a view in its own coordinates).
    public func moved(to location: Point) -> MouseEvent {
        MouseEvent(kind, at: location, modifiers: modifiers)
    }

    /// Decodes the parameters of an SGR report (`CSI < code ; x ; y M`, or `m` for a release), 1-based
    /// coordinates; nil when malformed or not one Skiff reports (horizontal wheel, extra buttons).
    static func sgr(parameters: Substring, isRelease: Bool) -> MouseEvent? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 3,
              let code = Int(fields[0]), let x = Int(fields[1]), let y = Int(fields[2]),
              (0...255).contains(code), x >= 1, y >= 1 else { return nil }
        return decode(code: code, x: x - 1, y: y - 1, isRelease: isRelease)
    }

    /// Decodes a legacy X10 report (`CSI M` and three bytes, each the value plus 32; coordinates 1-based),
    /// sent by terminals that ignore mode 1006.
    static func x10(_ bytes: (UInt8, UInt8, UInt8)) -> MouseEvent? {
        let code = Int(bytes.0) - 32, x = Int(bytes.1) - 33, y = Int(bytes.2) - 33
        guard code >= 0, x >= 0, y >= 0 else { return nil }
        // X10 reports a release as button 3, without saying which button; the left one is the usual case.
        if code & 0b1110_0011 == 3 {
            return MouseEvent(.release(.left), at: Point(x: x, y: y), modifiers: modifiers(code))
        }
        return decode(code: code, x: x, y: y, isRelease: false)
    }

    private static func decode(code: Int, x: Int, y: Int, isRelease: Bool) -> MouseEvent? {
        let location = Point(x: x, y: y)
        let modifiers = modifiers(code)
        let button = code & 0b11
        let isMotion = code & 32 != 0
        if code & 128 != 0 { return nil }
        if code & 64 != 0 {
            guard !isMotion, !isRelease else { return nil }
            switch button {
            case 0: return MouseEvent(.wheelUp, at: location, modifiers: modifiers)
            case 1: return MouseEvent(.wheelDown, at: location, modifiers: modifiers)
            default: return nil
            }
        }
        let pressed: Button? = switch button {
        case 0: .left
        case 1: .middle
        case 2: .right
        default: nil
        }
        guard let pressed else {
            return isMotion && !isRelease ? MouseEvent(.move, at: location, modifiers: modifiers) : nil
        }
        if isRelease { return MouseEvent(.release(pressed), at: location, modifiers: modifiers) }
        return MouseEvent(isMotion ? .drag(pressed) : .press(pressed), at: location, modifiers: modifiers)
    }

    private static func modifiers(_ code: Int) -> Modifiers {
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        return modifiers
    }
}
