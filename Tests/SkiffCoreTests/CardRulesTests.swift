import Testing
@testable import SkiffCore

/// The card rules the client checks as a person types and the server checks again, with the one sentence both
/// show for each refusal.
@Suite("Card rules")
struct CardRulesTests {
    @Test("a holder name is trimmed; empty, too long or with control characters it is refused")
    func holderName() throws {
        #expect(try CardHolderName.validate("  Sam Carter ") == "Sam Carter")
        #expect(throws: CardHolderName.Problem.name(.empty)) { try CardHolderName.validate("   ") }
        #expect(throws: CardHolderName.Problem.name(.tooLong)) {
            try CardHolderName.validate(String(repeating: "a", count: CardHolderName.maxLength + 1))
        }
        #expect(throws: CardHolderName.Problem.name(.controlCharacters)) { try CardHolderName.validate("Sam\u{7}Carter") }
        #expect(throws: CardHolderName.Problem.name(.controlCharacters)) { try CardHolderName.validate("Sam\u{202E}Carter") }
        #expect(throws: CardHolderName.Problem.name(.controlCharacters)) { try CardHolderName.validate("Sam\u{200B}Carter") }
        #expect(CardHolderName.maxLength == 100, "the contract's PersonName")
    }

    @Test("a holder name with a digit of any script is refused (a card number typed in the name field is never kept as a name); other scripts' names pass",
          arguments: ["4242424242424242", "Sam Carter 2", "Sam ４２ Carter", "Sam ٤ Carter"])
    func holderNameDigits(raw: String) {
        #expect(throws: CardHolderName.Problem.digits) { try CardHolderName.validate(raw) }
    }

    @Test("names of other scripts, numerals that are letters included, are names")
    func holderNameScripts() throws {
        for name in ["李一", "José Ñúñez", "Louis XIV", "Ⅻ Smith", "O'Brien-Smith Jr."] {
            #expect(try CardHolderName.validate(name) == name)
        }
        #expect(CardHolderName.Problem.digits.message.contains("no digits"))
    }

    @Test("the holder name's sentences: an empty field names the card; the rest are a name's")
    func holderNameMessages() {
        #expect(CardHolderName.Problem.name(.empty).message == "Enter the name printed on the card.")
        #expect(CardHolderName.Problem.name(.tooLong).message == "Use at most 100 characters.")
        #expect(CardHolderName.Problem.name(.controlCharacters).message
            == "A name holds no control characters, line breaks, text-direction marks, hidden characters or stacked accents.")
    }

    @Test("the last four are exactly four ASCII digits", arguments: ["", "123", "12345", "12a4", "１２３４", "12 4"])
    func lastFourRefused(raw: String) {
        #expect(throws: CardLastFour.Problem.malformed) { try CardLastFour.validate(raw) }
    }

    @Test("the last four's sentences")
    func lastFour() throws {
        #expect(try CardLastFour.validate("0005") == "0005")
        #expect(CardLastFour.Problem.malformed.message == "Enter the last four digits printed on the card.")
        #expect(CardLastFour.Problem.mismatch.message == "These are not the last four digits of this card.")
    }

    @Test("a security code is named by the brand its number's leading digits show, valid number or not")
    func securityCodeBrand() {
        #expect(CardNumber.brand(typed: "3782 82") == .amex)
        #expect(CardNumber.brand(typed: "4242-4") == .visa)
        #expect(throws: CardSecurityCode.Problem.wrongLength(expected: 4)) {
            try CardSecurityCode.validate("12", brand: CardNumber.brand(typed: "3782"))
        }
        #expect(CardSecurityCode.Problem.wrongLength(expected: 3).message == "The security code has 3 digits.")
    }

    @Test("a code fits some brand when it has 3 or 4 digits (the contract's schema)")
    func securityCodeShape() {
        #expect(CardSecurityCode.fitsAnyBrand("123"))
        #expect(CardSecurityCode.fitsAnyBrand("1234"))
        #expect(!CardSecurityCode.fitsAnyBrand("12"))
        #expect(!CardSecurityCode.fitsAnyBrand("12345"))
        #expect(!CardSecurityCode.fitsAnyBrand("12a"))
        #expect(!CardSecurityCode.fitsAnyBrand(""))
    }
}
