import Foundation
import Testing
@testable import SkiffCore

@Suite("SMS outbox line")
struct OutgoingCodeTests {
    let message = OutgoingCode(
        to: "+12025550100", code: "481516", purpose: .cardActivation, sentAt: Date(timeIntervalSince1970: 1_800_000_000)
    )

    @Test("one line: a JSON object with sorted keys, an ISO 8601 sentAt in UTC, and a newline")
    func line() throws {
        let line = String(decoding: try message.outboxLine(), as: UTF8.self)
        #expect(line == #"{"code":"481516","purpose":"card-activation","sentAt":"2027-01-15T08:00:00Z","to":"+12025550100"}"# + "\n")
    }

    @Test("what is written reads back, oldest first; a line that holds no message is skipped")
    func readsBack() throws {
        let later = OutgoingCode(to: "+447700900123", code: "000111", purpose: .registration, sentAt: message.sentAt + 60)
        var contents = try message.outboxLine()
        contents += Data("not a message\n".utf8)
        contents += try later.outboxLine()
        contents += Data(#"{"code":"12"#.utf8)
        #expect(OutgoingCode.outboxMessages(in: contents) == [message, later])
        #expect(OutgoingCode.outboxMessages(in: Data()) == [])
    }

    @Test("printing it never shows the code")
    func redacted() {
        #expect(!"\(message)".contains("481516"))
    }
}
