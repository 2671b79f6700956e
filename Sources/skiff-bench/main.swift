import Foundation
import TerminalUI

// skiff-bench: frame times on a headless terminal, and bytes written per list step through a real pty.
//
//   swift run -c release skiff-bench [path-to-skiff-gallery]
//
// Without a gallery path the pty measurement looks for skiff-gallery next to this executable.

@MainActor
final class BenchScreen: ViewController, ListViewDataSource {
    let list = ListView()
    let footer = Label("")

    override func viewDidLoad() {
        list.dataSource = self
        let stack = VStack(spacing: 0)
        stack.add(Label("Transactions for the last 90 days, newest first", style: .title), size: .fixed(1))
        stack.add(Panel(title: "Transactions", content: list), size: .fill)
        stack.add(footer, size: .fixed(1))
        view.addSubview(stack)
        keyBindings = [KeyBinding(.character("r"), "refresh") {}]
    }

    func numberOfRows(in listView: ListView) -> Int { 100_000 }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        ListRow("Coffee at Café Zoë #\(index) 漢字", detail: "-\(index % 97).\(index % 89 + 10) EUR")
    }
}

@MainActor
func measure(_ label: String, iterations: Int, _ body: () -> Void) {
    let clock = ContinuousClock()
    for _ in 0..<50 { body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let elapsed = clock.measure(body)
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    let mean = samples.reduce(0, +) / Double(samples.count)
    let median = samples[samples.count / 2]
    let p95 = samples[samples.count * 95 / 100]
    print(String(format: "%@: median %.1f µs, mean %.1f µs, p95 %.1f µs (%d frames)", label, median, mean, p95, iterations))
}

@MainActor
func headlessFrames() throws {
    let screen = BenchScreen(title: "Transactions")
    let navigation = NavigationController(root: ViewController(title: "Home"))
    let terminal = HeadlessTerminal(width: 100, height: 30)
    let app = Application(terminal: terminal, rootViewController: navigation)
    try app.start()
    navigation.push(screen)
    var step = 0
    measure("full 100×30 redraw (layout + draw + present)", iterations: 2000) {
        app.render()
    }
    measure("one-line change (label text) then frame", iterations: 2000) {
        step += 1
        screen.footer.text = "Step \(step)"
        app.renderIfNeeded()
    }
    measure("list step (Down key) then frame", iterations: 2000) {
        app.send(.down)
    }
}

/// Runs the gallery in a pseudo-terminal and counts the bytes it writes for one Down key in its list.
func ptyBytesPerArrow(gallery: String) throws {
    var master: Int32 = 0
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    let pid = forkpty(&master, nil, nil, &size)
    if pid == 0 {
        setenv("TERM", "xterm-256color", 1)
        setenv("LANG", "C.UTF-8", 1)
        setenv("SWIFT_BACKTRACE", "interactive=no", 1)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(gallery), nil]
        execv(gallery, &argv)
        _exit(127)
    }
    guard pid > 0 else { throw POSIXError(.ECHILD) }

    func drain(quiet milliseconds: Int32) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var probe = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, milliseconds) > 0 else { return total }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return total }
            total += count
        }
    }
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    let startup = drain(quiet: 500)
    print("gallery start-up frame: \(startup) bytes")
    let down = "\u{1B}OB"  // kcud1 in application cursor mode (keypad on)
    for _ in 0..<4 { send(down) }
    send("\r")
    let listScreen = drain(quiet: 400)
    print("push of the 100 000-row list screen: \(listScreen) bytes")
    var counts: [Int] = []
    for _ in 0..<40 {
        send(down)
        counts.append(drain(quiet: 150))
    }
    counts.sort()
    let mean = Double(counts.reduce(0, +)) / Double(counts.count)
    print(String(format: "bytes per Down key in the list: median %d, mean %.1f, min %d, max %d (%d steps, scrolling included)",
                 counts[counts.count / 2], mean, counts.first ?? 0, counts.last ?? 0, counts.count))
    send("\u{3}")
    _ = drain(quiet: 300)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(master)
}

let arguments = CommandLine.arguments
try MainActor.assumeIsolated {
    try headlessFrames()
}
let gallery = arguments.count > 1
    ? arguments[1]
    : URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("skiff-gallery").path
if FileManager.default.isExecutableFile(atPath: gallery) {
    try ptyBytesPerArrow(gallery: gallery)
} else {
    print("skiff-gallery not found at \(gallery): build it (swift build -c release --product skiff-gallery) to measure bytes per key.")
}
