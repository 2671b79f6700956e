/// An amount of money in a currency's minor units (cents for USD), never a floating-point value.
public struct Money: Hashable, Sendable, Codable {
    /// The amount in minor units; negative for money going out.
    public var amountMinor: Int64
    /// The ISO 4217 code, upper case (`USD`).
    public var currency: String

    public init(amountMinor: Int64, currency: String) {
        self.amountMinor = amountMinor
        self.currency = currency.uppercased()
    }

    /// How many digits the currency's minor unit has (2 for USD, 0 for JPY, 3 for KWD).
    var minorDigits: Int { Money.minorDigits(for: currency) }

    /// Minor-unit digits of an ISO 4217 code; 2 for any code not listed.
    static func minorDigits(for currency: String) -> Int {
        switch currency.uppercased() {
        case "JPY", "KRW", "VND", "CLP", "ISK", "HUF", "UGX", "XAF", "XOF": 0
        case "KWD", "BHD", "OMR", "JOD", "TND", "LYD", "IQD": 3
        default: 2
        }
    }

    /// The symbol shown before the amount, or the code followed by a space where there is no common symbol.
    var symbol: String {
        switch currency {
        case "USD": "$"
        case "EUR": "€"
        case "GBP": "£"
        case "JPY": "¥"
        case "INR": "₹"
        case "CHF": "CHF "
        default: currency + " "
        }
    }

    /// The currency's sign as a field shows it before an amount being typed: `$`, `€`, `CHF`.
    public var sign: String { symbol.trimmingSpaces() }

    /// `$1,234.56`, `-$12.00`, `¥1,200`: grouped thousands, a leading minus for negative amounts; without the sign
    /// (`1,234.56`) for a field that shows it beside the amount.
    public func formatted(showPlus: Bool = false, withSign: Bool = true) -> String {
        let digits = minorDigits
        let magnitude = amountMinor.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let whole = magnitude / divisor
        let fraction = magnitude % divisor
        var text = (withSign ? symbol : "") + Money.groupThousands(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        if amountMinor < 0 { return "-" + text }
        if showPlus && amountMinor > 0 { return "+" + text }
        return text
    }

    /// `1234567` → `1,234,567`.
    public static func groupThousands(_ value: UInt64) -> String {
        let raw = String(value)
        var out = ""
        for (index, char) in raw.enumerated() {
            if index > 0 && (raw.count - index) % 3 == 0 { out.append(",") }
            out.append(char)
        }
        return out
    }
}
