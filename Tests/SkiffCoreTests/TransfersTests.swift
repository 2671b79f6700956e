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

    @Test("A note holds no control character, line separator, direction mark, hidden character, stray joiner or stack of marks",
          arguments: ["\u{0}", "\u{7}", "\n", "\t", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}",
                      "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
                      "\u{200E}", "\u{200F}", "\u{061C}", "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{3164}",
                      "a\u{200D}b", "\u{200D}", "1\u{200C}2", "x\u{E0041}",
                      "e" + String(repeating: "\u{301}", count: 5)])
    func refused(mark: String) {
        #expect(throws: TransferRules.Problem.noteControlCharacters) { try TransferRules.validateNote("pay \(mark)back") }
    }

    @Test("Right-to-left text, emoji sequences, Persian's non-joiner, accents (four on one letter) and flags are text",
          arguments: ["שלום", "مرحبا", "e\u{301}", "👩‍👩‍👧", "👩🏽‍💻", "❤️‍🔥", "می\u{200C}خواهم", "Việt",
                      "a" + String(repeating: "\u{301}", count: 4), "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"])
    func accepted(text: String) throws {
        #expect(try TransferRules.validateNote(text) == text)
    }
}
