import Foundation
import Testing
@testable import SkiffServer

@Suite("Time-ordered IDs")
struct TimeOrderedIDTests {
    @Test("A version 7 UUID: the milliseconds first, then version 7 and RFC 9562's variant, lowercase")
    func layout() throws {
        let date = Date(timeIntervalSince1970: 1_796_000_000.123_9)
        let id = TimeOrderedID.make(at: date)

        let uuid = try #require(UUID(uuidString: id))
        #expect(id == uuid.uuidString.lowercased())
        let hex = id.replacingOccurrences(of: "-", with: "")
        #expect(UInt64(hex.prefix(12), radix: 16) == 1_796_000_000_123)
        #expect(Array(hex)[12] == "7")
        #expect("89ab".contains(Array(hex)[16]))
    }

    @Test("Later milliseconds sort after earlier ones, as text; the same millisecond differs in its random bits")
    func order() {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        // Two milliseconds apart: a date's seconds are a Double, which may floor to the millisecond before.
        let ids = (0..<200).map { TimeOrderedID.make(at: start.addingTimeInterval(Double($0 * 2) / 1000)) }
        #expect(ids == ids.sorted())
        let same = (0..<1000).map { _ in TimeOrderedID.make(at: start) }
        #expect(Set(same).count == 1000)
    }

    @Test("A date before 1970 counts as 1970")
    func beforeTheEpoch() {
        #expect(TimeOrderedID.make(at: Date(timeIntervalSince1970: -5)).hasPrefix("00000000-0000-7"))
    }
}
