import Foundation
import Testing
@testable import TerminalUI

@Suite("Theme")
struct ThemeTests {
    /// Every style of a theme, by role.
    static func styles(_ theme: Theme) -> [(role: String, style: Style)] {
        [
            ("text", theme.text), ("muted", theme.muted), ("title", theme.title), ("header", theme.header),
            ("border", theme.border), ("focusedBorder", theme.focusedBorder), ("field", theme.field),
            ("focusedField", theme.focusedField), ("cursor", theme.cursor), ("button", theme.button),
            ("focusedButton", theme.focusedButton), ("selection", theme.selection),
            ("inactiveSelection", theme.inactiveSelection), ("statusBar", theme.statusBar),
            ("statusKey", theme.statusKey), ("info", theme.info), ("error", theme.error),
            ("errorText", theme.errorText), ("success", theme.success), ("bar", theme.bar),
            ("positive", theme.positive),
        ]
    }

    /// xterm's palette: the 16 system colours as xterm draws them by default, the 6×6×6 cube and the greys.
    static func rgb(_ color: Color) -> (Double, Double, Double) {
        let system: [(Double, Double, Double)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        let index = Int(color.index)
        if index < 16 { return system[index] }
        if index >= 232 {
            let grey = Double(8 + 10 * (index - 232))
            return (grey, grey, grey)
        }
        let steps: [Double] = [0, 95, 135, 175, 215, 255]
        let cube = index - 16
        return (steps[cube / 36], steps[(cube / 6) % 6], steps[cube % 6])
    }

    /// WCAG contrast ratio between two colours (1 to 21).
    static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        func luminance(_ c: (Double, Double, Double)) -> Double {
            func channel(_ x: Double) -> Double {
                let v = x / 255
                return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
        }
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    static let black = (0.0, 0.0, 0.0), white = (255.0, 255.0, 255.0)

    @Test("256 colours when the terminal has them, the 8 otherwise, none without colour or with NO_COLOR")
    func choice() {
        let unicode = TerminalCapabilities(hasColor: true, isUnicode: true, colors: 256)
        #expect(Theme.forTerminal(unicode, environment: [:]) == .colored256())
        #expect(Theme.forTerminal(.init(hasColor: true, isUnicode: true, colors: 8), environment: [:]) == .colored())
        #expect(Theme.forTerminal(.init(hasColor: true, isUnicode: true, colors: 16), environment: [:]) == .colored())
        #expect(Theme.forTerminal(.init(hasColor: true, isUnicode: true), environment: [:]) == .colored())
        #expect(Theme.forTerminal(unicode, environment: ["NO_COLOR": "1"]) == .monochrome())
        #expect(Theme.forTerminal(.init(hasColor: false, isUnicode: true), environment: [:]) == .monochrome())
        #expect(Theme.forTerminal(.init(hasColor: true, isUnicode: false, colors: 256), environment: [:]) == .colored256(unicode: false))
    }

    @Test("the 8-colour theme uses only the 8 ANSI colours, never bold on black (drawn grey), and no blue, cyan or yellow text on the terminal's background")
    func eightColours() {
        for (role, style) in Self.styles(.colored()) {
            #expect((-1...7).contains(style.foreground.index) && (-1...7).contains(style.background.index), "\(role)")
            #expect(!(style.foreground == .black && style.attributes.contains(.bold)), "\(role)")
            if style.background == .default {
                #expect(![Color.blue, .cyan, .yellow].contains(style.foreground), "\(role) is unreadable on black or on white")
            }
        }
    }

    @Test("the 256-colour theme reads on a black and on a white background: text colours at 3:1 on both, filled backgrounds at 4:1 under their text")
    func twoHundredFiftySixColours() {
        let styles = Self.styles(.colored256())
        #expect(styles.contains { $0.style.foreground.index >= 16 })
        for (role, style) in styles {
            if style.background == .default {
                guard style.foreground != .default else { continue }
                let color = Self.rgb(style.foreground)
                #expect(Self.contrast(color, Self.black) >= 3, "\(role) on black")
                #expect(Self.contrast(color, Self.white) >= 3, "\(role) on white")
            } else {
                #expect(style.foreground != .default, "\(role) fills a background without choosing its text colour")
                #expect(Self.contrast(Self.rgb(style.foreground), Self.rgb(style.background)) >= 4, "\(role)")
            }
        }
    }

    @Test("the contrast arithmetic matches WCAG's: black on white is 21, grey 128 on black 5.3")
    func contrastArithmetic() {
        #expect(abs(Self.contrast(Self.black, Self.white) - 21) < 0.01)
        #expect(abs(Self.contrast((128, 128, 128), Self.black) - 5.32) < 0.01)
    }

    @Test("NO_COLOR and monochrome terminals get no colour at all")
    func monochrome() {
        for (role, style) in Self.styles(.monochrome()) {
            #expect(style.foreground == .default && style.background == .default, "\(role)")
        }
        #expect(Theme.monochrome().positive.attributes.contains(.bold))
    }

    @Test("one highlight at a time: only the focused selection is filled; a selection the focus left is underlined")
    func oneHighlight() {
        for theme in [Theme.colored(), .colored256(), .monochrome()] {
            #expect(theme.inactiveSelection.background == .default && !theme.inactiveSelection.attributes.contains(.reverse))
            #expect(theme.inactiveSelection.attributes.contains(.underline))
            #expect(theme.selection != theme.inactiveSelection)
        }
    }
}
