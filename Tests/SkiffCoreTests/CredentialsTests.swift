import Testing
@testable import SkiffCore

@Suite("Credentials rules")
struct CredentialsTests {
    @Test("passwords are 8 characters to 72 UTF-8 bytes")
    func passwordLength() throws {
        try PasswordPolicy.check("sail-away-2026")
        try PasswordPolicy.check(String(repeating: "x", count: 72))
        try PasswordPolicy.check(String(repeating: "é", count: 36))
        #expect(throws: PasswordPolicy.Problem.empty) { try PasswordPolicy.check("") }
        #expect(throws: PasswordPolicy.Problem.tooShort) { try PasswordPolicy.check("1234567") }
        #expect(throws: PasswordPolicy.Problem.tooLong) { try PasswordPolicy.check(String(repeating: "x", count: 73)) }
        #expect(throws: PasswordPolicy.Problem.tooLong) { try PasswordPolicy.check(String(repeating: "é", count: 37)) }
        #expect(PasswordPolicy.Problem.tooLong.message.contains("72 bytes"))
    }

    @Test("passwords with NUL or another control character are refused", arguments: [
        "sail\0away-2026", "sail\taway-2026", "sail-away-2026\n", "\u{7F}sail-away-2026", "sail\u{85}away-2026",
    ])
    func passwordControlCharacters(password: String) {
        #expect(throws: PasswordPolicy.Problem.controlCharacter) { try PasswordPolicy.check(password) }
    }

    @Test("one-time codes are six ASCII digits")
    func oneTimeCodes() throws {
        try OneTimeCode.validate("012345")
        #expect(throws: OneTimeCode.Problem.empty) { try OneTimeCode.validate("") }
        #expect(throws: OneTimeCode.Problem.malformed) { try OneTimeCode.validate("12345") }
        #expect(throws: OneTimeCode.Problem.malformed) { try OneTimeCode.validate("12345a") }
        #expect(throws: OneTimeCode.Problem.malformed) { try OneTimeCode.validate("١٢٣٤٥٦") }
    }

    @Test("full names are trimmed and required")
    func fullNames() throws {
        #expect(try FullName.validate("  Alex Rivera ") == "Alex Rivera")
        #expect(throws: FullName.Problem.empty) { try FullName.validate("   ") }
        #expect(throws: FullName.Problem.tooLong) { try FullName.validate(String(repeating: "a", count: 101)) }
    }
}
