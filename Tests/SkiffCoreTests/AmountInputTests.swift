import PropertyBased
import Testing
@testable import SkiffCore

@Suite("Amounts as people type them")
struct AmountInputTests {
    private func parse(_ text: String, _ currency: String = "USD") -> Result<Int64, AmountInput.Problem> {
        Result { () throws(AmountInput.Problem) in try AmountInput.parse(text, currency: currency) }
    }

    @Test("reads the ways a person writes dollars", arguments: [
        ("12.5", 1_250), ("12.50", 1_250), ("12", 1_200), ("12.", 1_200), (".5", 50), ("0.05", 5),
        ("$1,200", 120_000), ("$ 1,200.00", 120_000), ("  $12.50 ", 1_250), ("USD 7", 700), ("1200", 120_000),
        ("12,345,678.90", 1_234_567_890), ("-5", -500), ("-$5", -500), ("$-5", -500), ("0", 0), ("00012.30", 1_230),
    ] as [(String, Int64)])
    func reads(_ text: String, _ minor: Int64) {
        #expect(parse(text) == .success(minor))
    }

    @Test("refuses what is not a number", arguments: [
        "abc", "12,50", "1,20", "1,2345", ",100", "1,", "1 200", "12.5.0", "1e3", "$", ".", "-", "--5", "12a",
        "$$12", "€12", "١٢", "12.-5", "+12", "0x10",
    ])
    func refusesNonNumbers(_ text: String) {
        #expect(parse(text) == .failure(.notANumber))
    }

    @Test("refuses an empty field as empty")
    func empty() {
        #expect(parse("") == .failure(.empty))
        #expect(parse("   ") == .failure(.empty))
    }

    @Test("refuses more decimals than the currency has, even trailing zeros")
    func decimals() {
        #expect(parse("12.345") == .failure(.tooManyDecimals(allowed: 2)))
        #expect(parse("12.500") == .failure(.tooManyDecimals(allowed: 2)))
        #expect(parse("1200.5", "JPY") == .failure(.tooManyDecimals(allowed: 0)))
        #expect(parse("¥1,200", "JPY") == .success(1_200))
        #expect(parse("1.234", "KWD") == .success(1_234))
        #expect(AmountInput.Problem.tooManyDecimals(allowed: 0).message == "Use a whole amount, without decimals.")
        #expect(AmountInput.Problem.tooManyDecimals(allowed: 2).message == "Use at most 2 decimal places.")
    }

    @Test("an amount past Int64 in minor units is refused, never wrapped")
    func overflow() {
        #expect(parse("92233720368547758.07") == .success(Int64.max))
        #expect(parse("92233720368547758.08") == .failure(.tooLarge))
        #expect(parse("92,233,720,368,547,759") == .failure(.tooLarge))
        #expect(parse(String(repeating: "9", count: 40)) == .failure(.tooLarge))
    }

    @Test("check: above zero, within the balance, which the refusal names")
    func check() throws {
        let balance = Money(amountMinor: 120_000, currency: "USD")
        #expect(try AmountInput.check("$1,200", within: balance) == balance)
        #expect(throws: AmountInput.Problem.overBalance(balance)) { try AmountInput.check("1200.01", within: balance) }
        #expect(throws: AmountInput.Problem.notPositive) { try AmountInput.check("0.00", within: balance) }
        #expect(throws: AmountInput.Problem.notPositive) { try AmountInput.check("-3", within: balance) }
        #expect(throws: AmountInput.Problem.notANumber) { try AmountInput.check("ten", within: balance) }
        #expect(AmountInput.Problem.overBalance(balance).message == "That is more than your balance of $1,200.00.")
        #expect(AmountInput.Problem.notPositive.message == TransferRules.Problem.amountNotPositive.message)
    }

    @Test("any amount, formatted as the app shows it, reads back as itself")
    func formattedRoundTrips() async {
        await propertyCheck(input: Gen.int64(in: 0...Int64.max)) { minor in
            let text = Money(amountMinor: minor, currency: "USD").formatted()
            #expect(parse(text) == .success(minor), "\(text)")
        }
    }

    @Test("any whole amount and cents, written plainly, grouped, with or without the symbol, reads as the same cents")
    func writtenAnyWay() async {
        let input = zip(Gen.int64(in: 0...999_999_999_999), Gen.int64(in: 0...99), Gen.int(in: 0...7))
        await propertyCheck(input: input) { whole, cents, style in
            let grouped = Money.groupThousands(UInt64(whole))
            let plain = String(whole)
            let centsText = cents < 10 ? "0\(cents)" : "\(cents)"
            let text = switch style {
            case 0: plain
            case 1: grouped
            case 2: "$" + grouped + "." + centsText
            case 3: plain + "." + centsText
            case 4: " $ " + plain + "." + centsText + " "
            case 5: grouped + "." + String(centsText.first!) + (cents % 10 == 0 ? "" : String(centsText.last!))
            case 6: "-" + plain
            default: plain + "."
            }
            var expected = whole * 100
            switch style {
            case 2, 3, 4, 5: expected += cents
            case 6: expected = -expected
            default: break
            }
            #expect(parse(text) == .success(expected), "\(text)")
        }
    }

    @Test("anything at all: a number or one of the problems, never a crash, and digits only ever become cents")
    func anything() async {
        let alphabet = Gen<Character?>.element(of: Array("0123456789.,$- aé١") as [Character]).map { $0! }
        await propertyCheck(input: alphabet.string(of: 0...14)) { text in
            switch parse(text) {
            case .success(let minor):
                let digits = text.filter(\.isASCIIDigit)
                #expect(!digits.isEmpty, "\(text) read as \(minor) without a digit")
                #expect(!text.contains("a") && !text.contains("é") && !text.contains("١"))
            case .failure(let problem):
                if case .overBalance = problem { Issue.record("parse knows no balance, yet answered \(problem)") }
            }
        }
    }
}
