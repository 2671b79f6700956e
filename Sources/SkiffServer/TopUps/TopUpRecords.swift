import Foundation

/// Where a top-up stands.
enum TopUpStatus: String, Sendable {
    /// Waiting for the issuer's code (`POST /v1/topups/{id}/confirm`).
    case pending
    /// The money is in the wallet: `transferID` moved it.
    case completed
    /// The issuer declined it after the code; nothing moved.
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
    /// The issuer's code, when it asked for one.
    var verificationID: String?
    var verificationExpiresAt: Date?
    /// The transfer that moved the money, and its reference (completed only).
    var transferID: String?
    var reference: String?
    /// The card network's authorization.
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
