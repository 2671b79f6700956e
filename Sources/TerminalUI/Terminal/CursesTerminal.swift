@preconcurrency import CNcurses
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The real terminal, driven through ncursesw.
///
/// Only cells that differ from the previous frame are handed to ncurses, which in turn sends only what
/// changed on screen. Input is read as raw bytes from standard input and decoded by `KeyDecoder`, mouse reports
/// included when `reportsMouse` asked the terminal for them (modes 1000, 1002 and 1006, switched off again on
/// stop, suspend and crash).
@MainActor
public final class CursesTerminal: Terminal {
    public private(set) var size = Size(width: 80, height: 24)
    public private(set) var capabilities = TerminalCapabilities(hasColor: false, isUnicode: false)
    private let environment: [String: String]
    private var screen: OpaquePointer?
    private var previous: CellBuffer?
    private var colorPairs: [ColorKey: Int16] = [:]
    private var canUseColor = false
    private var originalSettings = termios()
    /// Whether the terminal is asked to report clicks, drags and the wheel.
    public let reportsMouse: Bool

    private struct ColorKey: Hashable {
        let foreground: Int16
        let background: Int16
    }

    /// A terminal over standard input and output; `environment` supplies `TERM` and `NO_COLOR`.
    ///
    /// With `reportsMouse` false the terminal keeps the mouse to itself (plain text selection).
    public init(environment: [String: String], reportsMouse: Bool = true) {
        self.environment = environment
        self.reportsMouse = reportsMouse
    }

    /// Turns on bracketed paste and, when wanted, button, drag and wheel reports in SGR form.
    private var inputModesOn: String {
        "\u{1B}[?2004h\u{1B}[?1004h" + (reportsMouse ? "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" : "")
    }

    /// Undoes `inputModesOn`.
    private var inputModesOff: String {
        (reportsMouse ? "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" : "") + "\u{1B}[?1004l\u{1B}[?2004l"
    }

    public var inputFileDescriptor: Int32? { 0 }

    public func start() throws {
        guard isatty(0) == 1, isatty(1) == 1 else { throw TerminalError.notATerminal }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { throw TerminalError.unsupported(term: term) }
        setlocale(LC_ALL, "")
        let unicode = skiff_locale_is_utf8()
        tcgetattr(0, &originalSettings)
        guard let screen = skiff_newterm(term) else { throw TerminalError.unknown(term: term) }
        self.screen = screen
        guard skiff_tigetstr("cup") != nil else {
            endwin()
            delscreen(screen)
            self.screen = nil
            throw TerminalError.unsupported(term: term)
        }
        canUseColor = has_colors()
        if canUseColor {
            start_color()
            use_default_colors()
        }
        capabilities = TerminalCapabilities(hasColor: canUseColor, isUnicode: unicode, colors: canUseColor ? Int(COLORS) : 0)
        enterProgramMode()
        leaveAndResume()
        size = Size(width: Int(skiff_cols()), height: Int(skiff_lines()))
        armEmergencyRestore(termios: originalSettings, reset: resetSequence())
    }

    private func enterProgramMode() {
        raw()
        noecho()
        nonl()
        skiff_keypad(true)
        typeahead(-1)
        curs_set(0)
        writeDirect(inputModesOn)
        previous = nil
    }

    /// Leaves the screen and comes back at once, before the first frame, so that a frame goes out in one write.
    ///
    /// ncurses (6.4) writes out what it has buffered at every cursor move until the program has once left the screen
    /// (`endwin`) and refreshed it again: a frame touching five rows went out in five to seven writes, each waking the
    /// terminal. The round trip happens before anything is drawn; the terminal switches to its own screen and back
    /// within one write.
    private func leaveAndResume() {
        endwin()
        skiff_refresh()
    }

    /// Bytes that undo everything `start` did to the screen, for crash handlers.
    private func resetSequence() -> [UInt8] {
        var bytes: [UInt8] = Array(inputModesOff.utf8)
        for name in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            if let value = skiff_tigetstr(name) {
                bytes.append(contentsOf: Array(String(cString: value).utf8))
            }
        }
        bytes.append(contentsOf: Array("\r\n".utf8))
        return bytes
    }

    public func stop() {
        guard let screen else { return }
        writeDirect(inputModesOff)
        endwin()
        delscreen(screen)
        self.screen = nil
        tcsetattr(0, TCSANOW, &originalSettings)
        disarmEmergencyRestore()
    }

    public func suspend() {
        guard screen != nil else { return }
        writeDirect(inputModesOff)
        def_prog_mode()
        endwin()
        tcsetattr(0, TCSANOW, &originalSettings)
    }

    public func resume() {
        guard screen != nil else { return }
        reset_prog_mode()
        enterProgramMode()
        updateSize()
        skiff_clearok(true)
        skiff_refresh()
    }

    public func updateSize() {
        guard screen != nil else { return }
        var window = winsize()
        if withUnsafeMutablePointer(to: &window, { ioctl(1, UInt(TIOCGWINSZ), $0) }) == 0, window.ws_col > 0, window.ws_row > 0 {
            resizeterm(Int32(window.ws_row), Int32(window.ws_col))
        }
        size = Size(width: Int(skiff_cols()), height: Int(skiff_lines()))
        previous = nil
        skiff_clearok(true)
    }

    public func readInput() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count > 0 {
            return Array(bytes[0..<count])
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) {
            return []
        }
        return nil
    }

    public func present(_ buffer: CellBuffer) {
        guard screen != nil else { return }
        let full = previous?.size != buffer.size
        if full {
            skiff_erase()
        }
        let width = buffer.size.width
        // Rows the frame moved whole (a list scrolled by a row) are moved in ncurses' copy of the screen too, which
        // then finds the scroll as it did before; only the row they uncovered is handed over cell by cell.
        var scrolled: (rows: Range<Int>, shift: Int, uncovered: Int)?
        if !full, let previous, let run = buffer.scrolledRun(from: previous) {
            let region = run.shift > 0
                ? run.rows.lowerBound...run.rows.upperBound : (run.rows.lowerBound - 1)...(run.rows.upperBound - 1)
            if skiff_scroll_region(Int32(region.lowerBound), Int32(region.upperBound), Int32(run.shift)) {
                scrolled = (run.rows, run.shift, run.shift > 0 ? region.upperBound : region.lowerBound)
            }
        }
        var text = [wchar_t](repeating: 0, count: 6)
        // Neighbouring cells mostly share a style: its curses form is looked up again only when it changes.
        var lastStyle = Style.plain
        var lastCursesStyle = cursesStyle(lastStyle)
        for y in 0..<buffer.size.height {
            if let scrolled, scrolled.rows.contains(y) { continue }
            let row = buffer.row(y)
            let previousRow = full || scrolled?.uncovered == y ? nil : previous?.row(y)
            // A row the frame did not draw is the last frame's own storage: equal at once.
            if let previousRow, previousRow == row { continue }
            for x in 0..<width {
                let cell = row[x]
                if cell.isContinuation { continue }
                if let previousRow, previousRow[x] == cell {
                    continue
                }
                var count = 0
                for scalar in cell.text.unicodeScalars where count < 5 {
                    text[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                text[count] = 0
                if cell.style != lastStyle {
                    lastStyle = cell.style
                    lastCursesStyle = cursesStyle(lastStyle)
                }
                let (attributes, pair) = lastCursesStyle
                _ = skiff_put_cell(Int32(y), Int32(x), text, attributes, pair)
            }
        }
        skiff_refresh()
        previous = buffer
    }

    private func cursesStyle(_ style: Style) -> (attr_t, Int16) {
        var attributes = attr_t(0)
        if style.attributes.contains(.bold) { attributes |= skiff_a_bold() }
        if style.attributes.contains(.dim) { attributes |= skiff_a_dim() }
        if style.attributes.contains(.underline) { attributes |= skiff_a_underline() }
        if style.attributes.contains(.reverse) { attributes |= skiff_a_reverse() }
        guard canUseColor, style.foreground != .default || style.background != .default else {
            return (attributes, 0)
        }
        let key = ColorKey(foreground: style.foreground.index, background: style.background.index)
        if let pair = colorPairs[key] {
            return (attributes, pair)
        }
        let pair = Int16(colorPairs.count + 1)
        guard Int32(pair) < COLOR_PAIRS else { return (attributes, 0) }
        init_pair(pair, key.foreground, key.background)
        colorPairs[key] = pair
        return (attributes, pair)
    }

    private func writeDirect(_ sequence: String) {
        let bytes = Array(sequence.utf8)
        bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
    }
}
