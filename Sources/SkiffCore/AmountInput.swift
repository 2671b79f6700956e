/// An amount as a person types it ("12.5", "12.50", "$1,200", "1200.00"), read into the currency's minor units:
/// the one rule for every screen that takes an amount (Send money, Top up).
///
/// Accepted: spaces around it; the currency's symbol (or code) before the figures; a leading minus (read, then
/// refused as not above zero); whole units written plainly or grouped by commas in threes (`1,200`, `12,345,678`);
/// a point and at most as many decimals as the currency has (two for USD, none for JPY). Anything else is not a
/// number: `12,50`, `1,20`, `1 200`, `12.5.0`, `1e3`, letters. The arithmetic is checked: an amount past
/// `Int64` in minor units is refused, never wrapped.
public enum AmountInput {
    /// Why what was typed is not an amount that can be used.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case notANumber
        /// More decimals than the currency has (`allowed`).
        case tooManyDecimals(allowed: Int)
        case notPositive
        /// Too large to count in minor units.
        case tooLarge
        /// More than the balance, which is named.
        case overBalance(Money)
        /// More than one transfer may send, which is named (`TransferRules.transferMaxMinor`).
        case overTransferLimit(Money)

        public var message: String {
            switch self {
            case .empty: "Enter an amount."
            case .notANumber: "Enter the amount in figures, such as 12.50."
            case .tooManyDecimals(let allowed):
                allowed == 0 ? "Use a whole amount, without decimals." : "Use at most \(allowed) decimal places."
            case .notPositive: TransferRules.Problem.amountNotPositive.message
            case .tooLarge: "That amount is far too large."
            case .overBalance(let balance): "That is more than your balance of \(balance.formatted())."
            case .overTransferLimit(let limit): "Send at most \(limit.formatted()) at a time."
            }
        }
    }

    /// `text` in minor units of `currency` (which may be zero or negative: `check` refuses those).
    public static func parse(_ text: String, currency: String) throws(Problem) -> Int64 {
        var rest = Substring(text.trimmingSpaces())
        guard !rest.isEmpty else { throw .empty }
        var negative = false
        if rest.first == "-" {
            negative = true
            rest = rest.dropFirst().drop(while: { $0 == " " })
        }
        let money = Money(amountMinor: 0, currency: currency)
        for prefix in [money.sign, money.currency] where !prefix.isEmpty && rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count).drop(while: { $0 == " " })
            break
        }
        if !negative, rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .notANumber }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), fraction.allSatisfy(isDigit), let wholeDigits = groupedDigits(whole) else {
            throw .notANumber
        }
        let digits = money.minorDigits
        guard fraction.count <= digits else { throw .tooManyDecimals(allowed: digits) }
        var minor: Int64 = 0
        for character in wholeDigits + fraction + String(repeating: "0", count: digits - fraction.count) {
            let (times, overflowTimes) = minor.multipliedReportingOverflow(by: 10)
            let (plus, overflowPlus) = times.addingReportingOverflow(Int64(character.asciiValue! - 48))
            guard !overflowTimes, !overflowPlus else { throw .tooLarge }
            minor = plus
        }
        return negative ? -minor : minor
    }

    /// What `text` comes to as an amount that can be sent from `balance`: a number, above zero, no more decimals
    /// than the currency has, and no more than the balance.
    public static func check(_ text: String, within balance: Money) throws(Problem) -> Money {
        let amount = try check(text, currency: balance.currency)
        guard amount.amountMinor <= balance.amountMinor else { throw .overBalance(balance) }
        return amount
    }

    /// What `text` comes to as an amount of `currency` that is not taken from a balance (a top-up): a number,
    /// above zero, no more decimals than the currency has.
    public static func check(_ text: String, currency: String) throws(Problem) -> Money {
        let minor = try parse(text, currency: currency)
        guard minor > 0 else { throw .notPositive }
        return Money(amountMinor: minor, currency: currency)
    }

    private static func isDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) && character.isASCII }

    /// The digits of whole units written plainly (`1200`) or grouped by commas in threes (`1,200`); nil for
    /// anything else. Empty stays empty (`.5`).
    private static func groupedDigits(_ whole: Substring) -> String? {
        guard whole.contains(",") else { return whole.allSatisfy(isDigit) ? String(whole) : nil }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count),
              groups.dropFirst().allSatisfy({ $0.count == 3 }), groups.allSatisfy({ $0.allSatisfy(isDigit) })
        else { return nil }
        return groups.joined()
    }
}
