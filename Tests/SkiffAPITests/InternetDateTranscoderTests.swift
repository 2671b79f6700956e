import Foundation
import OpenAPIRuntime
import Testing
@testable import SkiffAPI

@Suite("InternetDateTranscoder")
struct InternetDateTranscoderTests {
    let transcoder = InternetDateTranscoder()

    @Test("writes UTC whole seconds with Z, as the runtime's ISO 8601 transcoder did, on dates around the calendar's edges", arguments: [
        0.0, 1_790_000_000.999, 951_782_400, 951_868_799, 4_102_444_800, -86_400, -2_208_988_800, 253_402_300_799,
    ])
    func writesAsBefore(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let expected = try ISO8601DateTranscoder.iso8601.encode(date)
        #expect(try transcoder.encode(date) == expected)
        #expect(try transcoder.decode(expected) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test("reads fractional seconds and numeric offsets", arguments: [
        ("2026-11-24T20:12:25Z", 1_795_551_145.0),
        ("2026-11-24T20:12:25.5Z", 1_795_551_145.5),
        ("2026-11-24t20:12:25.250z", 1_795_551_145.25),
        ("2026-11-24T21:12:25+01:00", 1_795_551_145.0),
        ("2026-11-24T15:42:25-04:30", 1_795_551_145.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
    ])
    func reads(text: String, seconds: Double) throws {
        #expect(try transcoder.decode(text).timeIntervalSince1970 == seconds)
    }

    @Test("refuses what is not an RFC 3339 date-time", arguments: [
        "", "2026-11-24", "2026-11-24T20:12:25", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-11-24T24:00:00Z", "2026-11-24T20:60:00Z", "2026-11-24T20:12:25.Z", "2026-11-24T20:12:25+0100",
        "2026-11-24T20:12:25Zjunk", "２０２６-11-24T20:12:25Z", "2026-11-24T20:12:25+24:00",
    ])
    func refuses(text: String) {
        #expect(throws: DecodingError.self) { try transcoder.decode(text) }
    }

    @Test("a year past four digits cannot be written")
    func yearTooLarge() {
        #expect(throws: EncodingError.self) { try transcoder.encode(Date(timeIntervalSince1970: 253_402_300_800)) }
    }
}
