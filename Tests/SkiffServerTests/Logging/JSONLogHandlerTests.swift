import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
@testable import SkiffServer

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    private func capture(_ body: (Logger) async -> Void) async -> [[String: String]] {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "skiff-test") { label in JSONLogHandler(label: label) { line in lines.withLockedValue { $0.append(line) } } }
        logger[metadataKey: "instance"] = "a"
        await body(logger)
        return lines.withLockedValue { $0 }.map { line in
            #expect(!line.contains("\n"), "one line: \(line)")
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String] ?? [:]
        }
    }

    @Test("A line is one JSON object: time, level, label, message and the metadata, with the request id while a request runs")
    func fields() async {
        let objects = await capture { logger in
            logger.info("outside", metadata: ["transfer": "t-1"])
            RequestLogID.$current.withValue("req-42") {
                logger.warning("inside \"quoted\"\nand on two lines")
            }
        }
        #expect(objects.count == 2)
        let outside = objects[0]
        #expect(outside["message"] == "outside" && outside["level"] == "info" && outside["label"] == "skiff-test")
        #expect(outside["transfer"] == "t-1" && outside["instance"] == "a")
        #expect(outside["request_id"] == nil)
        #expect(outside["time"].flatMap { try? Date($0, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) } != nil)
        let inside = objects[1]
        #expect(inside["message"] == "inside \"quoted\"\nand on two lines")
        #expect(inside["level"] == "warning" && inside["request_id"] == "req-42")
    }

    @Test("Lines below the level are not written")
    func level() async {
        let objects = await capture { logger in logger.debug("quiet") }
        #expect(objects.isEmpty)
    }
}
