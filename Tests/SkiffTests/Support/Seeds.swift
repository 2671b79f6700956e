import Foundation
import SkiffCore
@testable import Skiff

/// Fixtures shared by the wallet's tests.
enum Seeds {
    /// 2026-11-22 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_348_800)
    static let utc = Formatting(timeZone: TimeZone(identifier: "UTC")!)

    static let user = User(id: "u_1", fullName: "Alex Rivera", countryCode: "+1", phoneNumber: "2025550143")
    static let session = Session(token: "tok_secret_value", expiresAt: now.addingTimeInterval(12 * 3600), user: user)
    static let phone = try! PhoneNumber.parse(countryCode: "+1", number: "2025550143")
    static let demo = DemoCredentials.demo

    static let summary = AccountSummary(user: user, balance: Money(amountMinor: 1_234_56, currency: "USD"), unreadNotifications: 3)
    static let issuedCard = Card(
        id: "c_issued", kind: .issued, brand: .visa, last4: "0005", expiryMonth: 11, expiryYear: 2030,
        holderName: "ALEX RIVERA", status: .inactive
    )
    static let externalCard = Card(
        id: "c_ext", kind: .external, brand: .visa, last4: "4242", expiryMonth: 4, expiryYear: 2029,
        holderName: "ALEX RIVERA", status: .active
    )
    /// An added card its owner froze.
    static let frozenCard = Card(
        id: "c_frozen", kind: .external, brand: .mastercard, last4: "4444", expiryMonth: 8, expiryYear: 2028,
        holderName: "ALEX RIVERA", status: .active, frozen: true
    )
    /// An added card past its expiry (October 2026, before `now`).
    static let expiredCard = Card(
        id: "c_expired", kind: .external, brand: .visa, last4: "1881", expiryMonth: 10, expiryYear: 2026,
        holderName: "ALEX RIVERA", status: .active
    )
    static func transaction(_ n: Int, amountMinor: Int64 = -1_250) -> Transaction {
        Transaction(
            id: "t_\(n)", amount: Money(amountMinor: amountMinor, currency: "USD"),
            merchant: "Merchant \(n)", category: "Groceries", createdAt: now.addingTimeInterval(-Double(n) * 3600)
        )
    }
    /// November 2026 to the 22nd: $1,332.40 out in three categories, against $1,189.00 over October 1–22.
    static let spending = MonthlySpending(
        month: "2026-11",
        categories: [
            .init(name: "Travel", amount: Money(amountMinor: 90_000, currency: "USD")),
            .init(name: "Groceries", amount: Money(amountMinor: 41_250, currency: "USD")),
            .init(name: "Coffee", amount: Money(amountMinor: 1_990, currency: "USD")),
        ],
        totals: [Money(amountMinor: 133_240, currency: "USD")],
        previousMonth: "2026-10",
        previousDays: 1...22,
        previousDaysTotals: [Money(amountMinor: 118_900, currency: "USD")]
    )
    /// Jordan's number, as Send money looks it up.
    static let recipientPhone = try! PhoneNumber.parse(e164: "+12025550111")
    static let recipient = Recipient(id: "u_2", displayName: "Jordan R.", fullName: "Jordan Rivera")
    static let sentTransfer = SentTransfer(
        id: "t_1", reference: "SKF-7Q2M9KX4", amount: Money(amountMinor: 1_250, currency: "USD"), note: "Lunch",
        recipient: recipient, createdAt: now, replayed: false
    )
    static let addedMoney = AddedMoney(
        id: "tu_1", reference: "SKF-4TOPUP42", amount: Money(amountMinor: 5_000, currency: "USD"), cardName: "Visa •••• 4242",
        replayed: false
    )
    static let pendingTopUp = PendingTopUp(id: "tu_2", actionURL: URL(string: "https://bank.example/3ds/tu_2"))
    static let challenge = VerificationChallenge(verificationId: "v_1", expiresAt: now.addingTimeInterval(600))
    static let notification = AppNotification(
        id: "n_1", title: "Welcome to Skiff", body: "Your card is on its way.", createdAt: now, read: false
    )
}

extension SceneClock {
    /// A clock fixed at `Seeds.now` whose waits return at once and are counted.
    static func immediate(_ counter: SleepCounter = SleepCounter()) -> SceneClock {
        SceneClock(now: { Seeds.now }, sleep: { _ in counter.increment() })
    }
}

/// Counts how often a clock was asked to wait.
final class SleepCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}

/// A clock's waits that last until the test ends them, each counted with its length; a cancelled wait ends at once.
final class HeldSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var cancelled: Set<Int> = []
    private var asked: [Duration] = []
    private var nextID = 0

    /// The waits asked for, oldest first.
    var durations: [Duration] { lock.withLock { asked } }
    /// The waits still running.
    var held: Int { lock.withLock { waiting.count } }

    func sleep(for duration: Duration) async throws {
        let id = lock.withLock {
            nextID += 1
            asked.append(duration)
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let goesOn = lock.withLock {
                    guard !cancelled.contains(id) else { return false }
                    waiting[id] = continuation
                    return true
                }
                if !goesOn { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = lock.withLock {
                cancelled.insert(id)
                return waiting.removeValue(forKey: id)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Ends every wait still running.
    func endAll() {
        let all = lock.withLock {
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for continuation in all { continuation.resume() }
    }
}
