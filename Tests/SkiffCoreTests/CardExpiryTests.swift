import Foundation
import Testing
@testable import SkiffCore

@Suite("CardExpiry")
struct CardExpiryTests {
    /// 2026-11-22 12:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_348_800)

    @Test("parses MM/YY, M/YY, MM/YYYY and MMYY")
    func parses() throws {
        #expect(try CardExpiry.parse("04/29", now: now) == CardExpiry(month: 4, year: 2029, now: now))
        #expect(try CardExpiry.parse("4/29", now: now).month == 4)
        #expect(try CardExpiry.parse("12/2030", now: now).year == 2030)
        #expect(try CardExpiry.parse("0429", now: now).description == "04/29")
    }

    @Test("a card is good through its expiry month")
    func currentMonthIsValid() throws {
        #expect(try CardExpiry.parse("11/26", now: now).month == 11)
        #expect(throws: CardExpiry.Problem.expired) { try CardExpiry.parse("10/26", now: now) }
        #expect(throws: CardExpiry.Problem.expired) { try CardExpiry.parse("12/25", now: now) }
    }

    @Test("refuses malformed input with a reason", arguments: [
        ("", CardExpiry.Problem.empty),
        ("13/29", .invalidMonth),
        ("00/29", .invalidMonth),
        ("4-29", .malformed),
        ("04/2", .malformed),
        ("ab/cd", .malformed),
        ("04/60", .tooFarAhead),
    ])
    func refuses(raw: String, problem: CardExpiry.Problem) {
        #expect(throws: problem) { try CardExpiry.parse(raw, now: now) }
        #expect(!problem.message.isEmpty)
    }
}
