import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Runs a root screen on a terminal: input, resize, signals, redraws, timers, and giving the terminal back.
///
/// Everything happens on the main actor. The process sleeps until standard input or a signal is ready; a
/// frame is drawn only after something changed; a timer runs only while a spinner animates. Async work
/// started with `task(_:)` is tracked so tests can `settle()` it.
///
/// For tests, drive it without `run()`: `start()`, `send(_:)`, `settle()`, then read the
/// `HeadlessTerminal`'s lines.
@MainActor
public final class Application {
    public let terminal: any Terminal
    public let rootViewController: ViewController
    /// The look used to draw; chosen from the terminal's capabilities at start unless given.
    public private(set) var theme: Theme
    /// Below this size the screen shows `Terminal too small` instead of the interface.
    public var minimumSize = Size(width: 40, height: 12)
    /// The key that quits from a top-level screen (nil to disable).
    public var quitKey: Key? = .character("q")
    /// Whether the `?` overlay is showing.
    public private(set) var isHelpVisible = false
    /// The exit status once the application has quit.
    public private(set) var exitStatus: Int32?
    /// Whether the terminal has been taken over.
    public private(set) var isStarted = false
    /// How many frames have been drawn.
    public private(set) var frameCount = 0
    /// The rows the last frame drew (all of them for a whole frame).
    public private(set) var lastDrawnRows: Range<Int>?
    /// Whether the terminal window has the focus, as last reported (true until a terminal reports otherwise).
    public private(set) var isTerminalFocused = true
    /// Called when the terminal reports that its window gained (true) or lost (false) the focus.
    public var onFocusChange: (@MainActor (Bool) -> Void)?
    /// Called before each key the person types is handled (not for resizes or focus reports).
    public var onKeyPress: (@MainActor (Key) -> Void)?
    /// Called once, when the first frame has been written to the terminal (work that can wait for it waits for this).
    public var onFirstFrame: (@MainActor () -> Void)?

    private let environment: [String: String]
    private let explicitTheme: Theme?
    private let rootView = View()
    private var decoder = KeyDecoder()
    private var needsDisplay = true
    /// Whether a view changed in a way that may move or resize views since the last layout.
    private var needsLayout = true
    /// Whether the next frame is drawn whole rather than only where views changed.
    private var needsFullFrame = true
    /// The last frame presented, which the next one starts from.
    private var lastFrame: CellBuffer?
    /// Whether every frame drawn in part is checked against the same frame drawn whole, stopping the program on
    /// a difference. On by default for the headless terminal, which tests draw on; it doubles a frame's cost.
    public var verifiesPartialFrames: Bool
    private var isRendering = false
    private var renderScheduled = false
    /// Whether keys are being handled now; the frame is drawn when they are done, so a change needs no task to
    /// draw it later.
    private var isHandlingInput = false
    /// The async work started through `task(_:)`, for `settle()`.
    public let tasks = TaskTracker()
    private var animationTask: Task<Void, Never>?
    private var escapeGeneration = 0
    private var inputSource: DispatchSourceRead?
    private var signalRelay: SignalRelay?
    private var continuation: CheckedContinuation<Int32, Never>?

    /// An application showing `rootViewController` (usually a `NavigationController`) on `terminal`.
    ///
    /// `environment` is consulted for `NO_COLOR`; `theme` overrides the automatic choice.
    public init(terminal: any Terminal, rootViewController: ViewController, theme: Theme? = nil, environment: [String: String] = [:]) {
        self.terminal = terminal
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
        theme = explicitTheme ?? Theme.forTerminal(terminal.capabilities, environment: environment)
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
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    self?.readInput()
                }
            }
            source.resume()
            inputSource = source
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
        inputSource?.cancel()
        inputSource = nil
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

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM, SIGHUP:
            signalRelay?.acknowledgeTermination()
            quit(status: 128 + signal)
        case SIGTSTP:
            suspend()
        case SIGCONT:
            // Stopped by something other than our own Ctrl-Z (which has already taken the terminal back):
            // the shell may have reset the terminal meanwhile, so enter program mode again and redraw fully.
            terminal.resume()
            terminal.updateSize()
            needsDisplay = true
            needsFullFrame = true
            render()
        case SIGWINCH:
            dispatch(.resize)
            renderIfNeeded()
        default:
            break
        }
    }

    /// Gives the terminal to the shell and stops the job (Ctrl-Z); on `fg` takes it back and redraws.
    public func suspend() {
        guard isStarted else { return }
        terminal.suspend()
        if terminal.inputFileDescriptor != nil {
            signalRelay?.stopJob()
        }
        terminal.resume()
        terminal.updateSize()
        needsDisplay = true
        needsFullFrame = true
        render()
    }

    // MARK: Input

    private func readInput() {
        guard let bytes = terminal.readInput() else {
            quit(status: 128 + SIGHUP)
            return
        }
        process(bytes)
    }

    /// Decodes raw bytes as typed input and handles the keys.
    public func process(_ bytes: [UInt8]) {
        isHandlingInput = true
        defer { isHandlingInput = false }
        for key in decoder.decode(bytes) {
            dispatch(key)
        }
        if decoder.hasPendingInput {
            scheduleEscapeFlush()
        }
        renderIfNeeded()
    }

    /// Reads and handles whatever input the terminal has queued (for `HeadlessTerminal.type(_:)`).
    public func processPendingInput() {
        if let bytes = terminal.readInput(), !bytes.isEmpty {
            process(bytes)
        }
    }

    /// Handles bytes still waiting for the rest of an escape sequence as final (a lone Esc).
    public func flushPendingInput() {
        for key in decoder.flushPending() {
            dispatch(key)
        }
        renderIfNeeded()
    }

    private func scheduleEscapeFlush() {
        escapeGeneration += 1
        let generation = escapeGeneration
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: 25_000_000)
            guard let self, self.escapeGeneration == generation, self.decoder.hasPendingInput else { return }
            self.flushPendingInput()
        }
    }

    /// Handles one key as if typed, then draws if anything changed.
    public func send(_ key: Key) {
        isHandlingInput = true
        defer { isHandlingInput = false }
        dispatch(key)
        renderIfNeeded()
    }

    /// Handles keys in order.
    public func send(_ keys: [Key]) {
        isHandlingInput = true
        defer { isHandlingInput = false }
        for key in keys {
            dispatch(key)
        }
        renderIfNeeded()
    }

    /// Types text character by character.
    public func type(_ text: String) {
        send(text.map { Key.character($0) })
    }

    private func dispatch(_ key: Key) {
        guard exitStatus == nil else { return }
        switch key {
        case .ctrl("c"):
            quit(status: 130)
            return
        case .ctrl("z"):
            suspend()
            return
        case .resize:
            terminal.updateSize()
            needsFullFrame = true
            setNeedsDisplay()
            return
        case .focus(let gained):
            guard gained != isTerminalFocused else { return }
            isTerminalFocused = gained
            onFocusChange?(gained)
            setNeedsDisplay()
            return
        default:
            break
        }
        onKeyPress?(key)
        guard !isTooSmall else { return }
        if case .mouse(let event) = key {
            dispatchMouse(event)
            return
        }
        setNeedsDisplay()
        if isHelpVisible {
            isHelpVisible = false
            return
        }
        if key == .function(1) {
            isHelpVisible = true
            return
        }
        if rootViewController.handle(key) { return }
        if key == .character("?") {
            isHelpVisible = true
            return
        }
        if let quitKey, key == quitKey, isAtTopLevel {
            quit(status: 0)
        }
    }

    /// A press closes the help overlay; otherwise the screen's views get the event by position.
    private func dispatchMouse(_ event: MouseEvent) {
        if isHelpVisible {
            if case .press = event.kind {
                isHelpVisible = false
                setNeedsDisplay()
            }
            return
        }
        if rootViewController.handleMouse(event) {
            setNeedsDisplay()
        }
    }

    private var isAtTopLevel: Bool {
        guard let navigation = rootViewController as? NavigationController else { return true }
        return !navigation.canGoBack
    }

    /// Whether the terminal is below `minimumSize`.
    public var isTooSmall: Bool {
        terminal.size.width < minimumSize.width || terminal.size.height < minimumSize.height
    }

    // MARK: Async work

    /// Runs async work on the main actor, tracked for `settle()`; the screen is redrawn when it ends.
    @discardableResult
    public func task(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        tasks.run(operation)
    }

    /// Waits until every tracked task has finished, then draws. Tests call this after sending keys that start
    /// async work.
    public func settle() async {
        await tasks.settle()
        renderIfNeeded()
    }

    // MARK: Drawing

    /// Marks the screen as changed; a frame is drawn soon (once, however many changes).
    public func setNeedsDisplay() {
        guard !isRendering else { return }
        needsDisplay = true
        guard !renderScheduled, isStarted, !isHandlingInput else { return }
        renderScheduled = true
        Task { @MainActor [weak self] in
            self?.renderScheduled = false
            self?.renderIfNeeded()
        }
    }

    /// Draws a frame if something changed since the last one.
    public func renderIfNeeded() {
        if needsDisplay {
            render()
        }
    }

    /// Lays out and draws a frame and hands it to the terminal.
    ///
    /// Only the rows where a view asked to be drawn again (`View.setNeedsDisplay()`), moved, appeared or
    /// disappeared are drawn, over a copy of the last frame; a frame where nothing changed is not drawn at all.
    /// The whole screen is drawn on the first frame, after a resize or a return from the shell, and while the
    /// help overlay or the size warning shows.
    public func render() {
        guard isStarted else { return }
        isRendering = true
        defer { isRendering = false }
        needsDisplay = false
        let size = terminal.size
        let screen = Rect(origin: .zero, size: size)
        let showsOverlay = isTooSmall || isHelpVisible
        let redrawsAll = needsFullFrame || showsOverlay || lastFrame?.size != size
        needsFullFrame = showsOverlay
        var changedRows: Range<Int>?
        if !isTooSmall {
            rootView.frame = screen
            rootViewController.view.frame = screen
            visibleViewController?.ensureFocus()
            rootViewController.willDrawFrame()
            if needsLayout || redrawsAll {
                rootView.layoutTree()
                needsLayout = false
            } else if verifiesPartialFrames {
                verifyLayoutUnchanged()
            }
            rootView.collectChangedRows(origin: .zero, clip: screen, isShown: true, into: &changedRows)
        }
        let rows: Range<Int>
        if redrawsAll {
            rows = 0..<size.height
        } else if let changedRows {
            rows = changedRows
        } else {
            updateAnimation()
            return
        }
        let clip = Rect(x: 0, y: rows.lowerBound, width: size.width, height: rows.count)
        var buffer = redrawsAll ? CellBuffer(size: size) : lastFrame ?? CellBuffer(size: size)
        if !redrawsAll {
            buffer.fill(clip, style: .plain)
        }
        let surface = DrawingSurface(buffer: buffer)
        draw(in: Canvas(surface: surface, frame: screen, clip: clip, theme: theme))
        if verifiesPartialFrames && !redrawsAll {
            verifyPartialFrame(surface.buffer, rows: rows)
        }
        lastFrame = surface.buffer
        lastDrawnRows = rows
        terminal.present(surface.buffer)
        frameCount += 1
        updateAnimation()
    }

    /// Draws the screen, or the part of it the canvas clips to.
    private func draw(in canvas: Canvas) {
        if isTooSmall {
            drawTooSmall(in: canvas)
            return
        }
        rootView.drawTree(in: canvas)
        if isHelpVisible {
            HelpOverlay(title: visibleViewController?.title ?? "", bindings: helpBindings).draw(in: canvas)
        }
    }

    /// Stops the program when laying out again would move, resize, show or hide a view although no view said its
    /// change could (`setNeedsDisplay(sizeUnchanged: true)` passed for a change that alters a size).
    private func verifyLayoutUnchanged() {
        let before = rootView.layoutState
        rootView.layoutTree()
        let after = rootView.layoutState
        guard !before.elementsEqual(after, by: { $0.0 == $1.0 && $0.1 == $1.1 }) else { return }
        preconditionFailure("A frame skipped layout, but laying out again changes views' frames")
    }

    /// Stops the program when a frame drawn in part differs from the same frame drawn whole: a view changed
    /// what it draws without calling `setNeedsDisplay()`.
    private func verifyPartialFrame(_ partial: CellBuffer, rows: Range<Int>) {
        let screen = Rect(origin: .zero, size: partial.size)
        let whole = DrawingSurface(buffer: CellBuffer(size: partial.size))
        draw(in: Canvas(surface: whole, frame: screen, clip: screen, theme: theme))
        guard whole.buffer != partial else { return }
        let row = (0..<partial.size.height).first { partial.line($0) != whole.buffer.line($0) }
        let detail = row.map { "row \($0): drawn \"\(partial.line($0))\", expected \"\(whole.buffer.line($0))\"" }
            ?? "same text, different styles"
        preconditionFailure("A frame drawn in part (rows \(rows)) differs from the whole frame: \(detail)")
    }

    private var visibleViewController: ViewController? {
        (rootViewController as? NavigationController)?.visibleViewController ?? rootViewController
    }

    /// Every key of the current screen, as listed by the `?` overlay.
    public var helpBindings: [KeyBinding] {
        var bindings = rootViewController.helpBindings
        bindings.append(.described([.character("?"), .function(1)], "show this help"))
        if let quitKey, isAtTopLevel {
            bindings.append(.described([quitKey], "quit"))
        }
        bindings.append(.described([.ctrl("c")], "quit"))
        bindings.append(.described([.ctrl("z")], "suspend to the shell"))
        return bindings
    }

    private func drawTooSmall(in canvas: Canvas) {
        let lines = ["Terminal too small", "need \(minimumSize.width)×\(minimumSize.height), have \(canvas.size)"]
        let top = max(0, (canvas.size.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let shown = line.truncated(toWidth: canvas.size.width, ellipsis: canvas.theme.glyphs.ellipsis)
            let x = max(0, (canvas.size.width - shown.displayWidth) / 2)
            canvas.write(shown, x: x, y: top + offset, style: offset == 0 ? canvas.theme.title : canvas.theme.muted)
        }
    }

    // MARK: Animation

    /// Advances every running animation by one step and draws.
    public func tick() {
        for view in rootView.animatingViews {
            view.tick()
        }
        renderIfNeeded()
    }

    /// Whether an animation timer is running.
    public var isAnimating: Bool { animationTask != nil }

    private func updateAnimation() {
        let animating = rootView.hasAnimatingViews && exitStatus == nil
        if animating, animationTask == nil {
            animationTask = Task { @MainActor [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 100_000_000)
                    guard !Task.isCancelled, let self else { return }
                    self.tick()
                }
            }
        } else if !animating, let task = animationTask {
            task.cancel()
            animationTask = nil
        }
    }
}
