import Foundation
import SkiffCore

/// Wording and formats shared by every Presenter: money, dates, countdowns and error messages.
struct Formatting: Sendable {
    var timeZone: TimeZone
    /// When set, amounts blur while it says so.
    var privacy: DisplayPrivacy?

    init(timeZone: TimeZone = .current, privacy: DisplayPrivacy? = nil) {
        self.timeZone = timeZone
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

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `21 Nov 2026`.
    func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return "\(c.day ?? 1) \(Formatting.months[(c.month ?? 1) - 1]) \(c.year ?? 1970)"
    }

    /// `14:05`.
    func time(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// `21 Nov 2026 14:05`.
    func dayAndTime(_ date: Date) -> String { day(date) + " " + time(date) }

    /// `21 Nov`: short form for list rows.
    func shortDay(_ date: Date) -> String {
        let c = calendar.dateComponents([.month, .day], from: date)
        let day = c.day ?? 1
        return (day < 10 ? " " : "") + "\(day) \(Formatting.months[(c.month ?? 1) - 1])"
    }

    /// `10,000`: a count with its thousands grouped, as amounts are.
    func count(_ value: Int) -> String {
        (value < 0 ? "-" : "") + Money.groupThousands(UInt64(value.magnitude))
    }

    /// `4:05` for 245 seconds; `0:09`.
    func countdown(seconds: Int) -> String {
        let s = max(0, seconds)
        return "\(s / 60):" + String(format: "%02d", s % 60)
    }

    /// `04/29`.
    func expiry(month: Int, year: Int) -> String {
        String(format: "%02d/%02d", month, year % 100)
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
        let owner = card.kind == .issued ? "Skiff card" : "Added card"
        return "\(owner) · expires \(expiry(month: card.expiryMonth, year: card.expiryYear)) · \(cardStatus(card))"
    }

    /// A sentence for a failed call, or nil where nothing needs saying (the person cancelled).
    func message(for error: NetworkError) -> String? {
        switch error {
        case .unreachable: "Can't reach the server. Check the connection and try again."
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
        case .stepUpRequired: "Enter your password again to send this amount."
        case .declined(let reason): reason
        case .server(let status, _): "Something went wrong on our side (\(status)). Please try again in a moment."
        case .cancelled: nil
        case .serverNotStarted(let reason): "The built-in server could not start: \(reason). Quit and start Skiff again."
        }
    }
}
