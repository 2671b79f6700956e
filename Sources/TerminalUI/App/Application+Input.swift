/// Input: bytes from the terminal decoded into keys, and each key dispatched: the application's own keys
/// (Ctrl-C, Ctrl-Z, resize, focus, `?` / F1, the quit key) first, then the screens.
extension Application {
    func readInput() {
        guard let bytes = terminal.readInput() else {
            quit(status: hangUpStatus)
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

    func dispatch(_ key: Key) {
        guard exitStatus == nil else { return }
        switch key {
        case KitKeys.interrupt:
            quit(status: 130)
            return
        case KitKeys.suspend:
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
        if key == KitKeys.helpAlways {
            isHelpVisible = true
            return
        }
        if rootViewController.handle(key) { return }
        if key == KitKeys.helpQuestionMark {
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

    var isAtTopLevel: Bool {
        guard let navigation = rootViewController as? NavigationController else { return true }
        return !navigation.canGoBack
    }

    /// Whether the terminal is below `minimumSize`.
    public var isTooSmall: Bool {
        terminal.size.width < minimumSize.width || terminal.size.height < minimumSize.height
    }
}
