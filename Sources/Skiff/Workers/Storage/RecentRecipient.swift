import SkiffCore

/// A number the signed-in user sent money to, kept so they can pick it again on Send money: the number, and the
/// shortened name they were shown for it ("Jordan R."), so the list says who each number is. Never an amount, a
/// note or a full name.
struct RecentRecipient: Hashable, Sendable, Codable {
    /// The number in E.164 (`+12025550111`).
    var number: String
    var name: String

    init(number: String, name: String) {
        self.number = number
        self.name = name
    }

    /// How many are kept for each user.
    static let kept = 5

    /// The number, when it still reads as one (a file edited by hand may hold anything).
    var phone: PhoneNumber? { try? PhoneNumber.parse(e164: number) }

    /// `recipient` first, then `list` without it (by number), at most `kept`.
    static func remembering(_ recipient: RecentRecipient, in list: [RecentRecipient]) -> [RecentRecipient] {
        Array(([recipient] + list.filter { $0.number != recipient.number }).prefix(kept))
    }
}
