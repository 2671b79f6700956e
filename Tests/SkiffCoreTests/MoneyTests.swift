import Testing
@testable import SkiffCore

@Suite("Money")
struct MoneyTests {
    @Test("formats dollars with grouped thousands and two decimals")
    func formatsDollars() {
        #expect(Money(amountMinor: 123_456, currency: "usd").formatted() == "$1,234.56")
        #expect(Money(amountMinor: 5, currency: "USD").formatted() == "$0.05")
        #expect(Money(amountMinor: 100_000_000, currency: "USD").formatted() == "$1,000,000.00")
    }

    @Test("puts the sign before the symbol")
    func signs() {
        #expect(Money(amountMinor: -1_200, currency: "USD").formatted() == "-$12.00")
        #expect(Money(amountMinor: 1_200, currency: "EUR").formatted(showPlus: true) == "+€12.00")
        #expect(Money(amountMinor: 0, currency: "USD").formatted(showPlus: true) == "$0.00")
    }

    @Test("respects currencies without or with three minor digits")
    func minorDigits() {
        #expect(Money(amountMinor: 1_200, currency: "JPY").formatted() == "¥1,200")
        #expect(Money(amountMinor: 1_234, currency: "KWD").formatted() == "KWD 1.234")
    }

    @Test("a field's currency sign, and the figures without it for the field beside it; typed back, they read the same")
    func signBesideField() throws {
        #expect(Money(amountMinor: 0, currency: "USD").sign == "$")
        #expect(Money(amountMinor: 0, currency: "CHF").sign == "CHF")
        #expect(Money(amountMinor: 0, currency: "SEK").sign == "SEK")
        let amount = Money(amountMinor: 120_050, currency: "USD")
        #expect(amount.formatted(withSign: false) == "1,200.50")
        #expect(Money(amountMinor: -1_234, currency: "KWD").formatted(withSign: false) == "-1.234")
        #expect(try AmountInput.parse(amount.formatted(withSign: false), currency: "USD") == 120_050)
    }
}
