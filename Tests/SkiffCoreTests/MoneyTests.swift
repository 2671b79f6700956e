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
}
