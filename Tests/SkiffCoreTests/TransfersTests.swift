import SkiffCore
import Testing

@Suite("Transfer rules")
struct TransfersTests {
    @Test("A note is trimmed, empty is none, and 140 characters as a person counts them pass where 141 do not")
    func noteLength() throws {
        #expect(try TransferRules.validateNote("  Lunch  ") == "Lunch")
        #expect(try TransferRules.validateNote("   ") == nil)
        #expect(try TransferRules.validateNote(nil) == nil)
        let thumbs = String(repeating: "👍🏽", count: 140)
        #expect(try TransferRules.validateNote(thumbs) == thumbs)
        #expect(throws: TransferRules.Problem.noteTooLong) { try TransferRules.validateNote(thumbs + "e") }
    }

    @Test("A note holds no control character, line separator or direction mark; other marks and scripts pass",
          arguments: ["\u{0}", "\u{7}", "\n", "\t", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}",
                      "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"])
    func refused(mark: String) {
        #expect(throws: TransferRules.Problem.noteControlCharacters) { try TransferRules.validateNote("pay \(mark)back") }
    }

    @Test("Right-to-left text, joiners and accents are text, not marks", arguments: ["שלום", "مرحبا", "e\u{301}", "👩‍👩‍👧", "a\u{200D}b", "\u{200F}x"])
    func accepted(text: String) throws {
        #expect(try TransferRules.validateNote(text) == text)
    }
}
