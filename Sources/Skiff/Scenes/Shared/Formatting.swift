import Foundation
import SkiffAPI
import SkiffCore
import Synchronization

/// Wording and formats shared by every Presenter: money, dates, countdowns and error messages.
struct Formatting: Sendable {
    /// The zone dates are told in: the one given, or the system's, read when a date is first formatted (reading it
    /// costs ~0.5 ms, not spent before the first frame) and the same for the rest of the run.
    var timeZone: TimeZone { givenTimeZone ?? Self.systemTimeZone }
    private static let systemTimeZone = TimeZone.current
    private let givenTimeZone: TimeZone?
    /// When set, amounts blur while it says so.
    var privacy: DisplayPrivacy?

    init(timeZone: TimeZone? = nil, privacy: DisplayPrivacy? = nil) {
        givenTimeZone = timeZone
        self.privacy = privacy
    }

    /// `£1,234.50` (`+£12.00` with `showPlus` for money in), or `•••` while the display is blurred.
    @MainActor
    func amount(_ money: Money, showPlus: Bool = false) -> String {
        amount(money, showPlus: showPlus, blurred: isBlurred)
    }

    /// `Received $12.50 from Alex R.`, or `Topped up $50.00 from Visa •••• 4242.`: money in, told as it arrives.
    @MainActor
    func moneyReceived(_ money: Money, from sender: String, isTopUp: Bool) -> String {
        let sentence = (isTopUp ? "Topped up " : "Received ") + amount(money) + " from " + sender
        return sentence.hasSuffix(".") ? sentence : sentence + "."
    }

    /// Whether amounts blur now.
    @MainActor
    var isBlurred: Bool { privacy?.isBlurred == true }

    /// `amount(_:showPlus:)` as it reads with the display `blurred` or not, for formatting away from the main actor.
    func amount(_ money: Money, showPlus: Bool = false, blurred: Bool) -> String {
        blurred ? DisplayPrivacy.blurredAmount : money.formatted(showPlus: showPlus)
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// `November` for `2026-11` (a month as the server names it), or `November 2025` when `today` is in another
    /// year; the text as it came when it names no month.
    func monthName(_ month: String, today: Date? = nil) -> String {
        guard let number = Int(month.suffix(2)), Self.monthNames.indices.contains(number - 1) else { return month }
        let name = Self.monthNames[number - 1]
        guard let today, let year = Int(month.prefix(4)), year != localTime(today).year else { return name }
        return name + " \(year)"
    }

    /// `November` for month 11.
    static func monthName(_ month: Int) -> String { monthNames[month - 1] }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `21 Nov 2026`.
    func day(_ date: Date) -> String {
        let local = localTime(date)
        return "\(local.day) \(Formatting.months[local.month - 1]) \(local.year)"
    }

    /// `14:05`.
    func time(_ date: Date) -> String {
        let local = localTime(date)
        return Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute)
    }

    /// `21 Nov 2026 14:05`.
    func dayAndTime(_ date: Date) -> String { day(date) + " " + time(date) }

    /// `21 Nov`: short form for list rows.
    func shortDay(_ date: Date) -> String {
        let local = localTime(date)
        return (local.day < 10 ? " " : "") + "\(local.day) \(Formatting.months[local.month - 1])"
    }

    /// A date as read on a wall clock in `timeZone`.
    struct LocalTime: Equatable {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int
    }

    /// The first instant (1 Jan 1583, UTC) from which Foundation's Gregorian calendar is the proleptic one the
    /// arithmetic below follows; earlier dates (Julian before October 1582) take `Calendar`.
    private static let arithmeticFrom: TimeInterval = -12_212_553_600
    /// 1 Jan 10000, UTC: past it too, `Calendar` answers.
    private static let arithmeticUntil: TimeInterval = 253_402_300_800

    /// `date` in `timeZone`: the zone's offset at that instant, then the civil date of the day count
    /// (`InternetDateTranscoder.civil(fromDays:)`, H. Hinnant's `civil_from_days`). `Calendar.dateComponents` gives
    /// the same answer at about twenty times the cost, and a list row formats a date every time it scrolls into view.
    func localTime(_ date: Date) -> LocalTime {
        let seconds = date.timeIntervalSince1970
        guard seconds >= Formatting.arithmeticFrom, seconds < Formatting.arithmeticUntil else {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            return LocalTime(
                year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0, minute: c.minute ?? 0)
        }
        let local = Int64(seconds.rounded(.down)) + Int64(Formatting.offsets.offset(of: timeZone, at: date))
        let (days, secondOfDay) = InternetDateTranscoder.day(ofSecond: local)
        let civil = InternetDateTranscoder.civil(fromDays: days)
        return LocalTime(
            year: Int(civil.year), month: Int(civil.month), day: Int(civil.day), hour: Int(secondOfDay / 3_600),
            minute: Int(secondOfDay % 3_600 / 60))
    }

    /// The zones' offsets by UTC day, shared by every `Formatting`.
    private static let offsets = ZoneOffsets()

    /// `10,000`: a count with its thousands grouped, as amounts are.
    func count(_ value: Int) -> String {
        (value < 0 ? "-" : "") + Money.groupThousands(UInt64(value.magnitude))
    }

    /// `4:05` for 245 seconds; `0:09`.
    func countdown(seconds: Int) -> String {
        let s = max(0, seconds)
        return "\(s / 60):" + Self.twoDigits(s % 60)
    }

    /// `04/29`.
    func expiry(month: Int, year: Int) -> String {
        Self.twoDigits(month) + "/" + Self.twoDigits(year % 100)
    }

    /// `07`, `42`: a number below 100 in two digits. Written out because `String(format:)` goes through
    /// Foundation's formatter, which was half of Home's view model (every card's expiry) while scrolling.
    static func twoDigits<Number: BinaryInteger>(_ value: Number) -> String {
        (value < 10 ? "0" : "") + String(value)
    }

    /// `Active` or `Inactive`; `Frozen` while frozen, whatever the status it returns to.
    func cardStatus(_ card: Card) -> String {
        card.frozen ? "Frozen" : activation(card.status)
    }

    /// `Active` or `Inactive`, frozen or not.
    func activation(_ status: CardStatus) -> String {
        status == .active ? "Active" : "Inactive"
    }

    /// `Skiff card · expires 11/30 · Inactive`: a card's line in a list, after its name.
    func cardSummary(_ card: Card) -> String {
        "\(cardOrigin(card)) · \(cardStatus(card))"
    }

    /// `Skiff card · expires 11/30`: who issued the card and when it expires, the summary without its status.
    func cardOrigin(_ card: Card) -> String {
        let owner = card.kind == .issued ? "Skiff card" : "Added card"
        return "\(owner) · expires \(expiry(month: card.expiryMonth, year: card.expiryYear))"
    }

    /// A sentence for a failed call, or nil where nothing needs saying (the person cancelled).
    func message(for error: NetworkError) -> String? {
        switch error {
        case .unreachable: "Can't reach the server. Check the connection and try again."
        case .connectionLost: "The connection to the server broke before it answered. Try again."
        case .notSecure:
            "Can't make a secure connection: the server's certificate is not trusted. If it comes from a private "
                + "certificate authority, start Skiff with --ca-file."
        case .timeout: "The server took too long to answer. Try again."
        case .unauthorised: "Your session has ended. Please log in again."
        case .locked: "Skiff is locked. Enter your password to go on."
        case .validation(let detail, _): detail
        case .throttled(let seconds): "Too many attempts. Try again in \(countdown(seconds: seconds))."
        case .conflict(let detail): detail
        case .stillRunning: "The first attempt is still being processed. Try again in a moment."
        case .notFound: "That item no longer exists."
        case .stepUpRequired: "Enter your password to send this: today's transfers pass \(Money(amountMinor: TransferRules.stepUpAboveMinor, currency: "USD").formatted())."
        case .declined(let reason): reason
        // The server's detail speaks to API clients (their request's header); a person is told what it means.
        case .unavailable: "The card network did not answer, so nothing was added. Try again in a moment."
        // 503: the server is there but cannot serve for now (its database changing over to a standby, say).
        case .server(503, _): "The server is not available for a moment (503). Please try again in a few seconds."
        case .server(let status, _): "Something went wrong on our side (\(status)). Please try again in a moment."
        case .cancelled: nil
        case .serverNotStarted(let reason): "The built-in server could not start: \(reason). Quit and start Skiff again."
        }
    }
}

/// A time zone's offset from UTC, remembered for each UTC day the zone does not change its offset in: asking the zone
/// (ICU, behind a lock) costs more than formatting the rest of a date, and a list of transactions asks for hundreds of
/// dates in the same few days.
final class ZoneOffsets: Sendable {
    private struct Days {
        var zone = ""
        var offsets: [Int: Int] = [:]
    }

    private let days = Mutex(Days())
    /// Days remembered before the memory starts again (about eleven years of days).
    private let capacity = 4_096

    /// The offset of `timeZone` at `date`, in seconds east of UTC.
    func offset(of timeZone: TimeZone, at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return timeZone.secondsFromGMT(for: date) }
        let day = Int(InternetDateTranscoder.day(ofSecond: Int64(seconds.rounded(.down))).day)
        let zone = timeZone.identifier
        if let known = days.withLock({ $0.zone == zone ? $0.offsets[day] : nil }) { return known }
        let start = Date(timeIntervalSince1970: TimeInterval(day * 86_400))
        let offset = timeZone.secondsFromGMT(for: start)
        // A day with a change of offset in it is asked about each time.
        if let change = timeZone.nextDaylightSavingTimeTransition(after: start),
           change.timeIntervalSince1970 < TimeInterval((day + 1) * 86_400) {
            return timeZone.secondsFromGMT(for: date)
        }
        days.withLock { days in
            if days.zone != zone || days.offsets.count >= capacity {
                days = Days(zone: zone)
            }
            days.offsets[day] = offset
        }
        return offset
    }
}
