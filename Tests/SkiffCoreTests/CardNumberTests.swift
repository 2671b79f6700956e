import Testing
@testable import SkiffCore

@Suite("CardNumber")
struct CardNumberTests {
    @Test("recognises brands from leading digits", arguments: [
        ("4242424242424242", CardBrand.visa),
        ("5555555555554444", .mastercard),
        ("2223003122003222", .mastercard),
        ("378282246310005", .amex),
        ("6011111111111117", .discover),
        ("6445644564456445", .discover),
        ("3056930009020004", .dinersClub),
        ("3566002020360505", .jcb),
        ("6200000000000005", .unionPay),
        ("9999", .unknown),
        ("", .unknown),
    ])
    func brands(digits: String, brand: CardBrand) {
        #expect(CardBrand.detect(digits) == brand)
    }

    @Test("accepts valid numbers with spaces and keeps only digits")
    func accepts() throws {
        let card = try CardNumber("4242 4242 4242 4242")
        #expect(card.digits == "4242424242424242")
        #expect(card.brand == .visa)
        #expect(card.last4 == "4242")
        #expect(card.masked == "•••• 4242")
    }

    @Test("never prints the whole number")
    func descriptionIsMasked() throws {
        let card = try CardNumber("5555555555554444")
        #expect("\(card)" == "Mastercard •••• 4444")
        #expect(!String(describing: card).contains("5555555555"))
    }

    @Test("refuses bad numbers with a reason", arguments: [
        ("", CardNumber.Problem.empty),
        ("4242-4242-4242-424x", .invalidCharacters),
        ("42424242424", .tooShort),
        ("42424242424242424242", .tooLong),
        ("4242424242424241", .failsChecksum),
        ("37828224631000", .wrongLengthForBrand(.amex)),
    ])
    func refuses(raw: String, problem: CardNumber.Problem) {
        #expect(throws: problem) { try CardNumber(raw) }
        #expect(!problem.message.isEmpty)
    }

    @Test("groups digits by brand as typed")
    func grouping() {
        #expect(CardNumber.grouped("4242424242424242") == "4242 4242 4242 4242")
        #expect(CardNumber.grouped("378282246310005") == "3782 822463 10005")
        #expect(CardNumber.grouped("42424") == "4242 4")
        #expect(CardNumber.grouped("") == "")
    }

    @Test("checks security code length by brand")
    func securityCode() throws {
        try CardSecurityCode.validate("123", brand: .visa)
        try CardSecurityCode.validate("1234", brand: .amex)
        #expect(throws: CardSecurityCode.Problem.wrongLength(expected: 4)) {
            try CardSecurityCode.validate("123", brand: .amex)
        }
        #expect(throws: CardSecurityCode.Problem.wrongLength(expected: 3)) {
            try CardSecurityCode.validate("12a", brand: .visa)
        }
        #expect(throws: CardSecurityCode.Problem.empty) { try CardSecurityCode.validate("", brand: .visa) }
    }
}
