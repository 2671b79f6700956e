import Testing
@testable import SkiffCore

@Suite("PhoneNumber")
struct PhoneNumberTests {
    @Test("normalises what a person types to E.164")
    func normalises() throws {
        #expect(try PhoneNumber.parse(countryCode: "+1", number: "202 555 0143").e164 == "+12025550143")
        #expect(try PhoneNumber.parse(countryCode: "1", number: "(202) 555-0143").e164 == "+12025550143")
        #expect(try PhoneNumber.parse(countryCode: "+1", number: "1 202 555 0143").e164 == "+12025550143")
        #expect(try PhoneNumber.parse(countryCode: "+44", number: "07700 900123").e164 == "+447700900123")
    }

    @Test("shows NANP numbers in the familiar groups")
    func display() throws {
        #expect(try PhoneNumber.parse(countryCode: "+1", number: "2025550143").displayString == "+1 202 555 0143")
        #expect(try PhoneNumber.parse(countryCode: "+44", number: "7700900123").displayString == "+44 7700 9001 23")
    }

    @Test("round-trips through E.164")
    func roundTrip() throws {
        let number = try PhoneNumber.parse(countryCode: "+49", number: "030 1234567")
        #expect(try PhoneNumber.parse(e164: number.e164) == number)
    }

    @Test("refuses bad input with a reason", arguments: [
        ("", "2025550143", PhoneNumber.Problem.emptyCountryCode),
        ("+1234", "2025550143", .invalidCountryCode),
        ("+0", "2025550143", .invalidCountryCode),
        ("+1", "", .empty),
        ("+1", "202-555-01a3", .invalidCharacters),
        ("+1", "202555014", .wrongLength(expected: 10...10)),
        ("+1", "1025550143", .invalidForCountry),
        ("+1", "2021550143", .invalidForCountry),
    ])
    func refuses(code: String, number: String, problem: PhoneNumber.Problem) {
        #expect(throws: problem) { try PhoneNumber.parse(countryCode: code, number: number) }
        #expect(!problem.message.isEmpty)
    }
}
