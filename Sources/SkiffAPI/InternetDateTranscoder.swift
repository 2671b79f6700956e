public import Foundation
public import OpenAPIRuntime

/// RFC 3339 dates for the contract's `date-time` fields, written and read by hand: `2026-11-24T20:12:25Z`.
///
/// Both ends use it (the server's handler configuration and the app's client). It writes what OpenAPIRuntime's
/// `.iso8601` wrote (UTC, whole seconds, `Z`) and reads that, fractional seconds and numeric offsets too. Foundation's
/// formatter, behind a lock, was the largest cost of encoding a page of transactions (issue 10).
public struct InternetDateTranscoder: DateTranscoder {
    public init() {}

    public func encode(_ date: Date) throws -> String {
        let (days, secondOfDay) = Self.day(ofSecond: Int64((date.timeIntervalSince1970).rounded(.down)))
        let (year, month, day) = Self.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "An RFC 3339 year has four digits."))
        }
        var text = [UInt8]()
        text.reserveCapacity(20)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); text.append(UInt8(ascii: "-"))
        digits(month, 2); text.append(UInt8(ascii: "-"))
        digits(day, 2); text.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); text.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2); text.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2); text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    public func decode(_ text: String) throws -> Date {
        guard let date = Self.parse(Array(text.utf8)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected an RFC 3339 date-time, got \(text.prefix(40))."))
        }
        return date
    }

    /// Years 0000–9999 only, as a four-digit year can say.
    private static func parse(_ bytes: [UInt8]) -> Date? {
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset: Int64 = 0
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`); the server's spending
    /// months use it too.
    package static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day, counted from 1970-01-01, of a second counted from its start, and the second within that day (both
    /// rounded down, before 1970 too); the app's date formatting uses it too.
    package static func day(ofSecond seconds: Int64) -> (day: Int64, secondOfDay: Int64) {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (day, seconds - day * 86_400)
    }

    /// The date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`); the app's date formatting uses it
    /// too.
    package static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
