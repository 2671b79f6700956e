import Foundation
import Logging
import Testing
@testable import Skiff

@Suite("FileLogHandler: one line per event, in a file")
struct FileLogHandlerTests {
    @Test("the time is written as Foundation's ISO 8601 style writes it, in UTC to the second", arguments: [
        0, 951_782_400, 1_767_225_599, 1_795_604_455.75, 4_102_444_800, 1_000_000_009,
    ])
    func timestamp(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(FileLogHandler.timestamp(date) == date.formatted(.iso8601))
    }

    @Test("a line holds the time, the level, the label, the message and the metadata sorted by key")
    func line() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("skiff.log")
        let sink = try FileLogHandler.Sink(file: file)
        let before = Date()
        Logger(label: "skiff.test") { FileLogHandler(label: $0, sink: sink) }.info("Started", metadata: ["b": "2", "a": "1"])
        let text = try String(contentsOf: file, encoding: .utf8)
        let time = String(text.prefix(20))
        #expect(time.hasSuffix("Z"))
        #expect(text.dropFirst(20) == " info skiff.test: Started a=1 b=2\n")
        let written = try #require(try? Date(time, strategy: .iso8601))
        #expect(abs(written.timeIntervalSince(before)) < 2)
    }
}
