import Foundation

/// Where a top-up stands.
enum TopUpStatus: String, Sendable {
    /// Started and not settled: the payment is being made, or waits for its holder to confirm it (3-D Secure).
    case pending
    /// The money is in the wallet: `transferID` moved it.
    case completed
    /// The card network declined it; nothing moved.
    case declined
}

/// A top-up as stored: never the card's number, only what names the card (brand and last four).
struct TopUpRecord: Sendable, Equatable {
    var id: String
    var userID: String
    var cardID: String
    var cardBrand: String
    var cardLast4: String
    var amountMinor: Int64
    var currency: String
    var status: TopUpStatus
    /// The card's fingerprint (`CardRecord.fingerprint`), for the limits per card across accounts.
    var cardFingerprint: String?
    /// The payment at the card network, once made (kept before it is confirmed).
    var paymentID: String?
    /// Where the card's holder confirms the payment (3-D Secure), while it waits for that.
    var actionURL: String?
    /// The transfer that moved the money, and its reference (completed only).
    var transferID: String?
    var reference: String?
    /// The card network's payment that brought the money (completed only).
    var authorizationID: String?
    /// `CardDeclineReason`'s raw value (declined only).
    var declineReason: String?
    /// The caller's Idempotency-Key (unique per user) and the keyed hash of the request.
    var idempotencyKey: String
    var requestHash: String
    var createdAt: Date
    var completedAt: Date?
}

/// What moves the money of an authorized top-up: the transfer from the card's funding account to the wallet, the
/// user's statement line and notification.
struct TopUpCompletion: Sendable {
    var transferID: String
    var reference: String
    var authorizationID: String
    var at: Date
    var line: StatementLine
    var notification: NotificationRecord
}

/// What a top-up repository writes for a new top-up: its record (`pending` or `completed`) and, when completed,
/// the money's move.
struct TopUpOrder: Sendable {
    var topUp: TopUpRecord
    /// Set exactly when `topUp.status` is `completed`.
    var completion: TopUpCompletion?
}

/// What became of a `TopUpOrder`.
enum TopUpOutcome: Sendable, Equatable {
    /// Written now.
    case made(TopUpRecord)
    /// The user's key made this top-up before, for the same request: it is answered again, as it stands now.
    case replayed(TopUpRecord)
    /// The user's key made a top-up for another request.
    case keyReused
    /// The user has no wallet in the currency.
    case noWallet
}

/// What came in from a card over a time: how many top-ups (pending or completed) and how much.
struct TopUpTotals: Sendable, Equatable {
    var count: Int
    var amountMinor: Int64
}
