/// An activity indicator with a caption; it animates only while running.
@MainActor
open class Spinner: View {
    public var title: String { didSet { if title != oldValue { setNeedsDisplay() } } }
    public private(set) var isRunning = false
    /// The current animation step.
    private(set) var frameIndex = 0

    public init(_ title: String = "") {
        self.title = title
        super.init()
        isHidden = true
    }

    /// Shows the spinner and starts animating.
    public func start() {
        isRunning = true
        isHidden = false
        setNeedsDisplay()
    }

    /// Stops animating and hides the spinner.
    public func stop() {
        guard isRunning || !isHidden else { return }
        isRunning = false
        isHidden = true
        frameIndex = 0
        setNeedsDisplay()
    }

    override var isAnimating: Bool { isRunning }

    override func tick() {
        frameIndex += 1
        setNeedsDisplay()
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: min(proposal.width, 2 + title.displayWidth), height: 1)
    }

    open override func draw(in canvas: Canvas) {
        let frames = canvas.theme.glyphs.spinnerFrames
        let frame = frames[frameIndex % frames.count]
        let used = canvas.write(frame, x: 0, y: 0, style: canvas.theme.title)
        canvas.write(" " + title, x: used, y: 0, style: canvas.theme.text, maxWidth: canvas.size.width - used)
    }
}
