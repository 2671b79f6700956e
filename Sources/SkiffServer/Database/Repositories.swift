import Foundation
import SkiffCore

enum RepositoryError: Error, Equatable {
    /// A unique value (phone number, card fingerprint) exists already.
    case duplicate
}

/// The repositories the server runs on.
struct Repositories: Sendable {
    var accounts: any AccountRepository
    var sessions: any SessionRepository
    var verifications: any VerificationRepository
    var loginThrottle: any LoginThrottleRepository
    var cards: any CardRepository
    var transactions: any TransactionRepository
    var notifications: any NotificationRepository
    var idempotency: any IdempotencyRepository
    var ledger: any LedgerRepository
    var topUps: any TopUpRepository
    var rateWindows: any RateWindowRepository
    var events: any EventRepository
}
