import Foundation

/// The month and year a card expires; a card is good through the last day of that month.
public struct CardExpiry: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1–12.
    public let month: Int
    /// Four digits, e.g. 2028.
    public let year: Int

    /// Why an expiry was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case malformed
        case invalidMonth
        case expired
        case tooFarAhead

        public var message: String {
            switch self {
            case .empty: "Enter the expiry date as MM/YY."
            case .malformed: "Use the form MM/YY, e.g. 04/29."
            case .invalidMonth: "The month must be 01 to 12."
            case .expired: "This card has expired."
            case .tooFarAhead: "That expiry date is too far in the future."
            }
        }
    }

    /// Checks month and year against `now` (UTC): not in the past, at most 20 years ahead. A year of two digits
    /// or fewer (0–99) is taken as 20YY, as typed on a form and as the contract allows.
    public init(month: Int, year: Int, now: Date) throws(Problem) {
        guard (1...12).contains(month) else { throw .invalidMonth }
        let year = (0...99).contains(year) ? 2000 + year : year
        let current = CalendarMonth(containing: now)
        if year < current.year || (year == current.year && month < current.month) { throw .expired }
        guard year <= current.year + 20 else { throw .tooFarAhead }
        self.month = month
        self.year = year
    }

    /// Parses `MM/YY`, `MM/YYYY` or `MMYY` as typed.
    public static func parse(_ raw: String, now: Date) throws(Problem) -> CardExpiry {
        let text = raw.trimmingSpaces()
        guard !text.isEmpty else { throw .empty }
        let parts: [Substring]
        if text.contains("/") {
            parts = text.split(separator: "/", omittingEmptySubsequences: false)
        } else if text.count == 4 {
            parts = [text.prefix(2), text.suffix(2)]
        } else {
            throw .malformed
        }
        guard parts.count == 2,
              (1...2).contains(parts[0].count), parts[1].count == 2 || parts[1].count == 4,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
              let month = Int(parts[0]), let rawYear = Int(parts[1])
        else { throw .malformed }
        return try CardExpiry(month: month, year: rawYear, now: now)
    }

    /// `04/29`.
    public var description: String {
        (month < 10 ? "0" : "") + "\(month)/" + String(String(year).suffix(2))
    }
}
