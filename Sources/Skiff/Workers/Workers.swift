import Foundation
import SkiffCore

/// Signing in and out, registering, resetting a password.
protocol AuthWorking: Sendable {
    func login(phone: PhoneNumber, password: String) async throws(NetworkError) -> Session
    func register(_ registration: Registration, idempotencyKey: String) async throws(NetworkError) -> VerificationChallenge
    /// `idempotencyKey`: the same for the same code sent again, so a retry after a lost answer signs in.
    func verifyRegistration(verificationId: String, code: String, idempotencyKey: String) async throws(NetworkError) -> Session
    func forgotPassword(phone: PhoneNumber) async throws(NetworkError) -> VerificationChallenge
    /// `idempotencyKey`: the same for the same reset sent again, so a retry after a lost answer succeeds.
    func resetPassword(verificationId: String, code: String, newPassword: String, idempotencyKey: String) async throws(NetworkError)
    func logout() async throws(NetworkError)
    /// Locks the session on the server: until `unlock`, every other request answers `.locked`.
    func lock() async throws(NetworkError)
    /// Checks the signed-in user's password again and unlocks the session; a wrong one is `.validation` on `password`.
    func unlock(password: String) async throws(NetworkError)
}

/// The signed-in user's account: summary, transactions and spending.
protocol AccountWorking: Sendable {
    func summary() async throws(NetworkError) -> AccountSummary
    func transactions(limit: Int, cursor: String?, query: String?) async throws(NetworkError) -> TransactionPage
    /// The current month's spending (the server's month, in UTC) by category, with last month's total.
    func spending() async throws(NetworkError) -> MonthlySpending
}

/// The signed-in user's cards.
protocol CardWorking: Sendable {
    func cards() async throws(NetworkError) -> [Card]
    /// Adds `card` once per `idempotencyKey`; a refused field is `.validation` under `NewCard`'s name for it
    /// (`number`, `expiry`, `securityCode`, `holderName`).
    func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card
    /// Asks for a code to activate the card; the server checks `last4` first and sends no code for other digits.
    func requestActivation(cardID: String, last4: String) async throws(NetworkError) -> VerificationChallenge
    func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card
    /// Freezes or unfreezes the card; answers it as it now is.
    func setFrozen(_ frozen: Bool, cardID: String) async throws(NetworkError) -> Card
    /// Removes an external card.
    func remove(cardID: String) async throws(NetworkError)
}

/// The signed-in user's notifications.
protocol NotificationsWorking: Sendable {
    func notifications() async throws(NetworkError) -> [AppNotification]
    func markRead(id: String) async throws(NetworkError)
}

/// Moving money: sending it (who has a number, the password proved again for a large amount, the transfer
/// itself) and adding it from a card (the top-up, and where it stands while the card's bank waits for its holder).
protocol TransferWorking: Sendable {
    /// The person with this number, named as another user may see them; a number nobody has is `.validation` on
    /// `phoneNumber`, the caller's own number too; too many lookups `.throttled`.
    func findRecipient(phone: PhoneNumber) async throws(NetworkError) -> Recipient
    /// The signed-in user's password proved again, for the one transfer of `amount` to `recipientID` (above
    /// `TransferRules.stepUpAboveMinor`, or taking the day's transfers past it); a wrong one is `.validation` on
    /// `password`.
    func stepUp(password: String, recipientID: String, amount: Money) async throws(NetworkError) -> StepUpProof
    /// Sends `order` once per `idempotencyKey`: the same key and order again answers the transfer made before. A
    /// refused amount or recipient is `.validation` on `amount` or `recipient`.
    func send(_ order: TransferOrder, idempotencyKey: String) async throws(NetworkError) -> SentTransfer
    /// Adds `order.amount` from the card once per `idempotencyKey` (the same key again carries on with the same
    /// top-up, never a second charge): done, or waiting for the card's bank to hear from its holder (3-D Secure); a
    /// decline at the card network is `.declined` with its reason, a card that cannot be used `.validation` on `card`,
    /// an amount refused (or past the day's top-ups) on `amount`.
    func topUp(_ order: TopUpOrder, idempotencyKey: String) async throws(NetworkError) -> TopUpProgress
    /// Where the top-up `id` stands now (the server asks the card network); a decline is `.declined`.
    func topUpProgress(id: String) async throws(NetworkError) -> TopUpProgress
}

/// Someone to send money to, as the sender may see them ("Jordan R.").
struct Recipient: Hashable, Sendable {
    var id: String
    var displayName: String
    /// The name the server knows them by, in full, from a lookup by number: shown on the confirmation.
    var fullName: String?

    init(id: String, displayName: String, fullName: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.fullName = fullName
    }
}

/// A proof of the password for one transfer: a secret, never printed.
struct StepUpProof: Hashable, Sendable, Redacted {
    var token: String
}

/// What the person confirmed: to whom, how much, the note; with the step-up proof when the amount needs one.
struct TransferOrder: Hashable, Sendable, Redacted {
    var recipientID: String
    var amount: Money
    var note: String?
    var stepUp: StepUpProof?
}

/// A transfer the server made, and whether this answer was for a request made before (its first answer lost).
struct SentTransfer: Hashable, Sendable {
    var id: String
    var reference: String
    var amount: Money
    var note: String?
    var recipient: Recipient
    var createdAt: Date
    /// The server had made it already: a retry found the transfer its first try made.
    var replayed: Bool
}

/// What changed for the signed-in user, as the server's event stream tells it (`GET /v1/events`).
enum LiveEvent: Hashable, Sendable {
    /// Money came in: a transfer from `from` (the sender's shortened name, "Alex R.") or a top-up from a card.
    case moneyReceived(Transaction, from: String, isTopUp: Bool)
    /// Money went out (sent from this or another device).
    case moneySent(Transaction)
    case balanceChanged(Money)
    case unreadChanged(Int)
    /// A card was added, activated, frozen, unfrozen or removed.
    case cardChanged
    /// This session was locked (as a 423 answer says) or revoked (as a 401 does); the stream has ended.
    case sessionLocked
    case sessionRevoked
}

/// What the live stream reports: whether it is connected, and each event.
enum LiveUpdate: Hashable, Sendable {
    case online
    /// The server cannot be reached; the stream is trying again.
    case offline
    case event(LiveEvent)
}

/// The signed-in user's live events: one stream that connects, reconnects with backoff after the server goes away and
/// catches up on what it missed (`Last-Event-ID`), until the sequence is let go or the session ends.
protocol LiveEventsWorking: Sendable {
    func updates() -> AsyncStream<LiveUpdate>
}

/// What the person confirmed adding: from which card, how much.
struct TopUpOrder: Hashable, Sendable {
    var card: Card
    var amount: Money
}

/// Where a top-up stands: the money is in, or the card network waits (for the card's holder to confirm the payment
/// with their bank at `PendingTopUp.actionURL`, or on its own work).
enum TopUpProgress: Hashable, Sendable {
    case added(AddedMoney)
    case waiting(PendingTopUp)
}

/// A top-up the card network has not settled yet.
struct PendingTopUp: Hashable, Sendable {
    var id: String
    /// Where the card's holder confirms the payment with their bank (3-D Secure), when that is what it waits for.
    var actionURL: URL?
}

/// Money added from a card, and whether this answer was for a request made before (its first answer lost).
struct AddedMoney: Hashable, Sendable {
    var id: String
    var reference: String
    var amount: Money
    /// `Visa •••• 4242`: brand and last four only.
    var cardName: String
    var replayed: Bool
}
