import Benchmark
import TerminalUI

/// A screen like Home's list: a title, a panel holding a list of a million rows, a status line.
@MainActor
final class MillionRows: ViewController, ListViewDataSource {
    let list = ListView()

    override func viewDidLoad() {
        list.dataSource = self
        let stack = VStack(spacing: 0)
        stack.add(Label("Transactions, newest first", style: .title), size: .fixed(1))
        stack.add(Panel(title: "Transactions", content: list), size: .fill)
        stack.add(Label("↑/↓ move  PgDn page  q quit"), size: .fixed(1))
        view.addSubview(stack)
        focus(list)
    }

    func numberOfRows(in listView: ListView) -> Int { 1_000_000 }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        ListRow(" 24 Nov  Café Zoë #\(index) · Coffee", detail: "-$\(index % 97).\(index % 89 + 10)")
    }
}

@MainActor
func application() throws -> (Application, HeadlessTerminal) {
    let terminal = HeadlessTerminal(width: 100, height: 30)
    let application = Application(terminal: terminal, rootViewController: MillionRows())
    // Drawn as in a real terminal: the headless terminal's check of every partial frame against a whole one is off.
    application.verifiesPartialFrames = false
    try application.start()
    application.renderIfNeeded()
    return (application, terminal)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))

    for (key, name) in [(Key.down, "Down"), (Key.pageDown, "PageDown")] {
        Benchmark("Key to frame: \(name) in a list of 1,000,000 rows (100x30)") { @MainActor (benchmark: Benchmark) async throws in
            let (application, _) = try application()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                application.send(key)
                application.renderIfNeeded()
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Cell buffer: write a 100x30 screen of text") { benchmark in
        var buffer = CellBuffer(size: Size(width: 100, height: 30))
        let line = String(repeating: "Café Zoë · 漢字 ", count: 8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for y in 0..<30 { _ = buffer.write(line, x: 0, y: y, style: .plain) }
            blackHole(buffer)
        }
    }

    Benchmark("Cell buffer: compare two 100x30 screens one row apart") { benchmark in
        var before = CellBuffer(size: Size(width: 100, height: 30))
        var after = before
        for y in 0..<30 { _ = before.write("Row \(y) Café Zoë", x: 0, y: y, style: .plain) }
        for y in 0..<30 { _ = after.write("Row \(y + 1) Café Zoë", x: 0, y: y, style: .plain) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var changed = 0
            for y in 0..<30 where before.line(y) != after.line(y) { changed += 1 }
            blackHole(changed)
        }
    }

    Benchmark("Key decoding: 1 KiB of arrows, PageDown, UTF-8 text and a paste") { benchmark in
        var input: [UInt8] = []
        while input.count < 1024 {
            input += Array("\u{1b}[B\u{1b}[6~Café 漢字\u{1b}[200~pasted text\u{1b}[201~".utf8)
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var decoder = KeyDecoder()
            blackHole(decoder.decode(input))
        }
    }
}
