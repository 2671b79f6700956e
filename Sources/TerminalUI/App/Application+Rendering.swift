/// Drawing: a frame only after something changed, only the rows that changed, checked against a whole frame
/// under test; the help overlay and the size warning.
extension Application {
    /// Marks the screen as changed; a frame is drawn soon (once, however many changes).
    public func setNeedsDisplay() {
        guard !isRendering else { return }
        needsDisplay = true
        guard !isHandlingInput else { return }
        scheduleRender()
    }

    /// Draws a frame on a later turn of the main actor, once however often asked.
    private func scheduleRender() {
        guard !renderScheduled, isStarted else { return }
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
    /// disappeared are drawn, over a copy of the last frame in which the cells of views that scrolled
    /// (`View.setNeedsDisplay(scrolledBy:rows:)`) have moved with them; a frame where nothing changed is not drawn.
    /// The whole screen is drawn on the first frame, after a resize or a return from the shell, and while the
    /// help overlay or the size warning shows.
    public func render() {
        guard isStarted, drawFrame(), !isTooSmall else { return }
        // After the frame is out, the screen does what can wait for it (decision 0173). A change that asks for a
        // frame there gets one of its own, on a later turn, even in the middle of handling a key.
        rootViewController.didPresentFrame()
        if needsDisplay { scheduleRender() }
    }

    /// Draws the frame; returns whether one went to the terminal.
    private func drawFrame() -> Bool {
        isRendering = true
        defer { isRendering = false }
        needsDisplay = false
        let size = terminal.size
        let screen = Rect(origin: .zero, size: size)
        let showsOverlay = isTooSmall || isHelpVisible
        let redrawsAll = needsFullFrame || showsOverlay || lastFrame?.size != size
        needsFullFrame = showsOverlay
        var changes = FrameChanges()
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
            rootView.collectChanges(origin: .zero, clip: screen, isShown: true, into: &changes)
        }
        let rows: Range<Int>
        if redrawsAll {
            rows = 0..<size.height
        } else if let changedRows = changes.rows {
            rows = changedRows
        } else {
            updateAnimation()
            return false
        }
        let clip = Rect(x: 0, y: rows.lowerBound, width: size.width, height: rows.count)
        // The frame is made in the surface itself: a second reference to it (a local copy) would make the first
        // write to each row drawn copy that row.
        let surface = DrawingSurface(buffer: redrawsAll ? CellBuffer(size: size) : lastFrame ?? CellBuffer(size: size))
        if !redrawsAll {
            for move in changes.moves {
                surface.buffer.moveRows(in: move.rect, by: move.delta)
            }
            surface.buffer.fill(clip, style: .plain)
        }
        draw(in: Canvas(surface: surface, frame: screen, clip: clip, theme: theme))
        if verifiesPartialFrames && !redrawsAll {
            verifyPartialFrame(surface.buffer, rows: rows)
        }
        lastFrame = surface.buffer
        lastDrawnRows = rows
        terminal.present(surface.buffer)
        frameCount += 1
        updateAnimation()
        return true
    }

    /// Draws the screen, or the part of it the canvas clips to.
    func draw(in canvas: Canvas) {
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
        bindings.append(.described(KitKeys.help, "show this help"))
        if let quitKey, isAtTopLevel {
            bindings.append(.described([quitKey], "quit"))
        }
        bindings.append(.described([KitKeys.interrupt], "quit"))
        bindings.append(.described([KitKeys.suspend], "suspend to the shell"))
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
}
