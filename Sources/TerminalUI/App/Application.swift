import Dispatch
/// Runs a root screen on a terminal: input, resize, signals, redraws, timers, and giving the terminal back.
///
/// Everything happens on the main actor. The process sleeps until standard input or a signal is ready; a
/// frame is drawn only after something changed; a timer runs only while a spinner animates. Async work
/// started with `task(_:)` is tracked so tests can `settle()` it.
///
/// For tests, drive it without `run()`: `start()`, `send(_:)`, `settle()`, then read the
/// `HeadlessTerminal`'s lines.
///
/// This file holds its state and its life (start, run, quit); each other role is in a file of its own:
/// `Application+Input` (keys and mouse), `+Signals`, `+Tasks` (async work), `+Rendering` (frames, help overlay,
/// size warning) and `+Animation` (the spinner's timer).
@MainActor
public final class Application {
    public let terminal: any Terminal
    public let rootViewController: ViewController
    /// The look used to draw; chosen from the terminal's capabilities at start unless given.
    public private(set) var theme: Theme
    /// Below this size the screen shows `Terminal too small` instead of the interface.
    var minimumSize = Size(width: 40, height: 12)
    /// The key that quits from a top-level screen (nil to disable).
    public var quitKey: Key? = .character("q")
    /// Whether the `?` overlay is showing.
    var isHelpVisible = false
    /// The exit status once the application has quit.
    public private(set) var exitStatus: Int32?
    /// Whether the terminal has been taken over.
    private(set) var isStarted = false
    /// How many frames have been drawn.
    var frameCount = 0
    /// The rows the last frame drew (all of them for a whole frame).
    var lastDrawnRows: Range<Int>?
    /// Whether the terminal window has the focus, as last reported (true until a terminal reports otherwise).
    var isTerminalFocused = true
    /// Called when the terminal reports that its window gained (true) or lost (false) the focus.
    public var onFocusChange: (@MainActor (Bool) -> Void)?
    /// Called before each key the person types is handled (not for resizes or focus reports).
    public var onKeyPress: (@MainActor (Key) -> Void)?
    /// Called once, when the first frame has been written to the terminal (work that can wait for it waits for this).
    public var onFirstFrame: (@MainActor () -> Void)?

    private let environment: [String: String]
    private let explicitTheme: Theme?
    /// The palette asked for (`--theme`), applied when the terminal's colours are known, at start.
    private let themeChoice: ThemeChoice
    let rootView = View()
    var decoder = KeyDecoder()
    var needsDisplay = true
    /// Whether a view changed in a way that may move or resize views since the last layout.
    var needsLayout = true
    /// Whether the next frame is drawn whole rather than only where views changed.
    var needsFullFrame = true
    /// The last frame presented, which the next one starts from.
    var lastFrame: CellBuffer?
    /// Whether every frame drawn in part is checked against the same frame drawn whole, stopping the program on
    /// a difference. On by default for the headless terminal, which tests draw on; it doubles a frame's cost.
    public var verifiesPartialFrames: Bool
    var isRendering = false
    var renderScheduled = false
    /// Whether keys are being handled now; the frame is drawn when they are done, so a change needs no task to
    /// draw it later.
    var isHandlingInput = false
    /// The async work started through `task(_:)`, for `settle()`.
    public let tasks = TaskTracker()
    var animationTask: Task<Void, Never>?
    var escapeGeneration = 0
    private var inputWatch: ReadableWatch?
    var signalRelay: SignalRelay?
    private var continuation: CheckedContinuation<Int32, Never>?

    /// An application showing `rootViewController` (usually a `NavigationController`) on `terminal`.
    ///
    /// `environment` is consulted for `NO_COLOR`, `themeChoice` over it; `theme` overrides both.
    public init(
        terminal: any Terminal, rootViewController: ViewController, theme: Theme? = nil, themeChoice: ThemeChoice = .auto,
        environment: [String: String] = [:]
    ) {
        self.terminal = terminal
        self.themeChoice = themeChoice
        self.rootViewController = rootViewController
        self.environment = environment
        explicitTheme = theme
        self.theme = theme ?? .colored()
        verifiesPartialFrames = terminal is HeadlessTerminal
        rootViewController.hostApplication = self
        if let navigation = rootViewController as? NavigationController {
            navigation.attachedApplication = self
        }
        tasks.onTaskEnd = { [weak self] in self?.setNeedsDisplay() }
    }

    // MARK: Starting and stopping

    /// Takes over the terminal and draws the first frame (without waiting for input: tests use this).
    public func start() throws {
        try terminal.start()
        isStarted = true
        theme = explicitTheme ?? Theme.forTerminal(terminal.capabilities, environment: environment, choice: themeChoice)
        rootView.onNeedsDisplay = { [weak self] layoutMayChange in
            if layoutMayChange { self?.needsLayout = true }
            self?.setNeedsDisplay()
        }
        rootView.addSubview(rootViewController.view)
        rootViewController.beginAppearance(true)
        rootViewController.endAppearance(true)
        render()
        if let onFirstFrame {
            self.onFirstFrame = nil
            onFirstFrame()
        }
    }

    /// Starts, then handles input and signals until `quit`; returns the exit status.
    ///
    /// Signal handlers are installed before the terminal is taken over, and the terminal is given back on
    /// every way out: quit, Ctrl-C, SIGINT / SIGTERM / SIGHUP, and crashes.
    public func run() async throws -> Int32 {
        let relay = SignalRelay { [weak self] signal in self?.handleSignal(signal) }
        relay.install()
        signalRelay = relay
        do {
            try start()
        } catch {
            relay.uninstall()
            signalRelay = nil
            throw error
        }
        if let descriptor = terminal.inputFileDescriptor {
            inputWatch = ReadableWatch(descriptor: descriptor) { [weak self] in self?.readInput() }
        }
        if let exitStatus { return exitStatus }
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
        }
    }

    /// Gives the terminal back and ends `run()` with a status (0 for a normal quit).
    public func quit(status: Int32 = 0) {
        guard exitStatus == nil else { return }
        exitStatus = status
        animationTask?.cancel()
        animationTask = nil
        inputWatch?.cancel()
        inputWatch = nil
        if isStarted {
            rootViewController.beginAppearance(false)
            rootViewController.endAppearance(false)
            terminal.stop()
            isStarted = false
        }
        signalRelay?.uninstall()
        signalRelay = nil
        continuation?.resume(returning: status)
        continuation = nil
    }
}
