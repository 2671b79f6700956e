import Foundation
import SkiffCore

/// The demo account (`DemoCredentials.demo`) and the generated transactions used by `seed-demo`, `seed` and a
/// fresh database.
enum DemoData {
    static let transactionCount = 240

    /// Merchants with their category and a typical amount range in cents (negative: money out).
    static let merchants: [(merchant: String, category: String, range: ClosedRange<Int64>)] = [
        ("Blue Bottle Coffee", "Coffee", -950 ... -350),
        ("Starbucks", "Coffee", -850 ... -295),
        ("Whole Foods Market", "Groceries", -18_500 ... -1_200),
        ("Trader Joe's", "Groceries", -9_800 ... -900),
        ("Safeway", "Groceries", -12_000 ... -700),
        ("Uber", "Transport", -4_800 ... -900),
        ("Lyft", "Transport", -3_900 ... -800),
        ("Metro SmarTrip", "Transport", -2_000 ... -200),
        ("Shell", "Fuel", -7_500 ... -2_500),
        ("Netflix", "Subscriptions", -1_549 ... -1_549),
        ("Spotify", "Subscriptions", -1_199 ... -1_199),
        ("iCloud+", "Subscriptions", -299 ... -299),
        ("Amazon", "Shopping", -25_000 ... -899),
        ("IKEA", "Home", -45_000 ... -1_500),
        ("Home Depot", "Home", -30_000 ... -1_100),
        ("Chipotle", "Restaurants", -2_400 ... -1_100),
        ("Sweetgreen", "Restaurants", -1_900 ... -1_200),
        ("The Smith", "Restaurants", -16_000 ... -4_500),
        ("CVS Pharmacy", "Health", -4_500 ... -600),
        ("Equinox", "Fitness", -26_000 ... -26_000),
        ("AMC Theatres", "Entertainment", -4_200 ... -1_500),
        ("Steam", "Entertainment", -6_000 ... -499),
        ("Delta Air Lines", "Travel", -68_000 ... -18_000),
        ("Airbnb", "Travel", -90_000 ... -22_000),
        ("Pepco", "Utilities", -16_000 ... -6_000),
        ("Verizon", "Utilities", -9_500 ... -7_000),
        ("Acme Corp Payroll", "Salary", 420_000 ... 420_000),
        ("Venmo from Sam", "Transfers", 1_500 ... 12_000),
        ("Interest", "Interest", 35 ... 420),
    ]

    /// Whether the demo account's number has an account in these repositories.
    static func isPresent(in repositories: Repositories) async throws -> Bool {
        let demo = DemoCredentials.demo
        let phone = try PhoneNumber.parse(countryCode: demo.countryCode, number: demo.phoneNumber)
        return try await repositories.accounts.user(phone: phone.e164) != nil
    }

    /// Seeds the demo account: user, issued inactive card, 240 transactions over the last months,
    /// three unread notifications and one read. Returns false when the number already has an account.
    @discardableResult
    static func seed(
        repositories: Repositories, passwords: PasswordService, key: ServerKey, clock: any ServerClock,
        limits: SkiffServerLimits
    ) async throws -> Bool {
        let demo = DemoCredentials.demo
        let phone = try PhoneNumber.parse(countryCode: demo.countryCode, number: demo.phoneNumber)
        if try await isPresent(in: repositories) { return false }
        let now = clock.now()
        let userID = UUID().uuidString.lowercased()
        let openedAt = now.addingTimeInterval(-200 * 86_400)
        do {
            try await repositories.accounts.create(NewAccount.opening(
                userID: userID, phone: phone.e164, countryCode: phone.countryCode, nationalNumber: phone.nationalNumber,
                fullName: demo.fullName, passwordHash: try await passwords.hash(demo.password), limits: limits, key: key,
                now: now, openedAt: openedAt, welcomeReadAt: openedAt.addingTimeInterval(600)
            ))
        } catch RepositoryError.duplicate {
            // Another server on the same database seeded it between the look-up and here.
            return false
        }
        try await insertTransactions(
            repositories: repositories, userID: userID, count: transactionCount - 1, endingAt: now,
            span: 180 * 86_400, currency: limits.currency, seed: 2026
        )
        let unread: [(String, String, TimeInterval)] = [
            ("Salary received", "Acme Corp Payroll paid $4,200.00 into your account.", 2 * 86_400),
            ("Card waiting", "Your Skiff card is not active yet. Activate it to start paying.", 5 * 3_600),
            ("New sign-in", "Your account was opened in the Skiff terminal app.", 900),
        ]
        for (title, body, ago) in unread {
            try await repositories.notifications.insert(NotificationRecord(
                id: UUID().uuidString.lowercased(), userID: userID, title: title, body: body,
                createdAt: now.addingTimeInterval(-ago), readAt: nil
            ))
        }
        return true
    }

    /// The merchants money comes in from (salary, a friend, interest).
    static let incoming = merchants.filter { $0.range.lowerBound > 0 }

    /// Writes `count` varied transactions spread evenly over `span` seconds before `endingAt`, reproducible from
    /// `seed`, through the ledger (`LedgerRepository.record`): each is a transfer between the user's wallet and the
    /// generated world with its postings, so the wallet's balance moves by exactly what the lines add up to. A purchase
    /// the wallet cannot pay for at that point of the history is money coming in instead (one of `incoming`), so the
    /// balance never goes below zero. Answers the wallet's balance after.
    @discardableResult
    static func insertTransactions(
        repositories: Repositories, userID: String, count: Int, endingAt end: Date, span: TimeInterval,
        currency: String, seed: UInt64
    ) async throws -> Int64 {
        let endMilliseconds = end.millisecondsSince1970
        let step = max(1, Int64(span * 1000) / Int64(max(count, 1)))
        let merchants = merchants, incoming = incoming
        return try await repositories.ledger.record(GeneratedHistory(
            userID: userID, currency: currency, count: count, run: GeneratedHistory.makeRun()
        ) { index, balance in
            var random = SplitMix64(seed: seed &+ UInt64(index))
            func draw(_ from: [(merchant: String, category: String, range: ClosedRange<Int64>)]) -> (String, String, Int64) {
                let pick = from[Int(random.next() % UInt64(from.count))]
                let width = UInt64(pick.range.upperBound - pick.range.lowerBound)
                return (pick.merchant, pick.category, pick.range.lowerBound + Int64(width == 0 ? 0 : random.next() % (width + 1)))
            }
            var (merchant, category, amount) = draw(merchants)
            let jitter = Int64(random.next() % UInt64(step))
            if amount < 0, balance < -amount {
                (merchant, category, amount) = draw(incoming)
            }
            // The newest lands on `end` itself, so a freshly seeded account always has this month's spending
            // (the demo's newest is a Lyft ride), even in the first hours of a month.
            let createdAt = min(endMilliseconds, endMilliseconds - Int64(count - 1 - index) * step + jitter)
            return NewTransaction(
                amountMinor: amount, currency: currency, merchant: merchant, category: category,
                createdAt: Date(millisecondsSince1970: createdAt)
            )
        })
    }
}
