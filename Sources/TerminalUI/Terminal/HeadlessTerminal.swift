/// An in-memory terminal for tests: keeps the last frame and renders it as lines of text.
@MainActor
public final class HeadlessTerminal: Terminal {
    public private(set) var size: Size
    public var capabilities: TerminalCapabilities
    /// The last frame presented.
    public private(set) var buffer: CellBuffer
    /// How many frames have been presented.
    private(set) var presentCount = 0
    /// Whether the terminal is currently started.
    private(set) var isStarted = false
    /// Bytes waiting to be read as input (see `type(_:)`).
    private(set) var pendingInput: [UInt8] = []

    public init(width: Int = 80, height: Int = 24, capabilities: TerminalCapabilities = .init(hasColor: true, isUnicode: true)) {
        size = Size(width: width, height: height)
        self.capabilities = capabilities
        buffer = CellBuffer(size: size)
    }

    public var inputFileDescriptor: Int32? { nil }

    /// The last frame's rows, trailing spaces removed.
    public var lines: [String] { buffer.lines }

    /// The last frame as one string of rows joined by newlines.
    public var text: String { buffer.text }

    /// Changes the size; the application picks it up when it handles `.resize`.
    public func resize(width: Int, height: Int) {
        size = Size(width: width, height: height)
    }

    /// Queues raw bytes as if the user had typed them (decoded by the application's `KeyDecoder`).
    public func type(_ bytes: [UInt8]) {
        pendingInput.append(contentsOf: bytes)
    }

    public func start() throws {
        isStarted = true
    }

    public func stop() {
        isStarted = false
    }

    public func present(_ buffer: CellBuffer) {
        self.buffer = buffer
        presentCount += 1
    }

    public func readInput() -> [UInt8]? {
        defer { pendingInput.removeAll() }
        return pendingInput
    }

    public func updateSize() {}

    public func suspend() {
        isStarted = false
    }

    public func resume() {
        isStarted = true
    }
}
