import Foundation
import Logging
import SkiffCore

/// Moving money between users: recipient lookups and transfers, with their rules and limits. The ledger
/// repository makes a checked transfer in one database transaction; this service decides what to ask of it and
/// turns its refusals into problems.
struct TransferService: Sendable {
    let accounts: any AccountRepository
    let ledger: any LedgerRepository
    let rateWindows: any RateWindowRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let logger: Logger

    /// Someone to send money to, as the sender may see them.
    struct Recipient: Sendable, Equatable {
        var id: String
        var displayName: String
        /// The registered name in full, on a lookup: what the sender checks before sending.
        var fullName: String? = nil
    }

    /// The contract's schema of a `Request`'s body.
    static let requestSchema = "TransferRequest"

    /// What a caller asks to send.
    struct Request: Sendable {
        var recipientID: String
        var amountMinor: Int64
        var currency: String
        var note: String?
        var stepUpToken: String?
    }

    /// The user who has this number, counted against the caller's lookups (`recipientLookupsPerHour`).
    func findRecipient(callerID: String, countryCode: String, phoneNumber: String) async throws -> Recipient {
        var problems = FieldProblems()
        let phone = AuthService.phone(countryCode: countryCode, number: phoneNumber, problems: &problems)
        try problems.check()
        guard let phone else { throw Problem.internalError }
        let now = clock.now()
        let window = limits.recipientLookupWindow
        if let oldest = try await rateWindows.take(
            scope: "recipients:" + callerID, at: now, since: now.addingTimeInterval(-window),
            limit: limits.recipientLookupsPerHour
        ) {
            let wait = oldest.addingTimeInterval(window).timeIntervalSince(now)
            throw Problem.tooManyLookups(retryAfter: max(1, Int(wait.rounded(.up))))
        }
        guard let user = try await accounts.user(phone: phone.e164) else { throw Problem.noRecipient }
        guard user.id != callerID else { throw Self.toYourself("phoneNumber") }
        return Recipient(id: user.id, displayName: ShortName.of(user.fullName), fullName: user.fullName)
    }

    /// What `send` did: the transfer, whether the key had made it before for the same request (its request hash),
    /// and the recipient as the sender sees them.
    struct Sent: Sendable {
        var transfer: TransferRecord
        var replayed: Bool
        var recipient: Recipient
    }

    /// Sends `request` from the caller's wallet, once per `idempotencyKey` (the ledger's strategy: the key and its
    /// request hash are kept with the transfer).
    func send(
        _ request: Request, callerID: String, sessionTokenHash: String, idempotencyKey: IdempotencyKey
    ) async throws -> Sent {
        let requestHash = try idempotencyKey.heldRequestHash()
        var problems = FieldProblems()
        var note: String?
        problems.contract(Self.requestSchema, "recipientId", request.recipientID)
        do {
            try TransferRules.validateAmount(request.amountMinor)
        } catch {
            problems.rule("amountMinor", error.message)
        }
        problems.contract(Self.requestSchema, "currency", request.currency)
        if !problems.contract(Self.requestSchema, "note", request.note) {
            do {
                note = try TransferRules.validateNote(request.note)
            } catch {
                problems.rule("note", error.message)
            }
        }
        problems.contract(Self.requestSchema, "stepUpToken", request.stepUpToken)
        if request.recipientID == callerID { problems.add(Self.toYourself("recipientId")) }
        try problems.check()
        if request.amountMinor > limits.transferMaxMinor {
            throw Problem.transferLimit(Self.perTransferLimitMessage(limits))
        }
        // Both users in one read: one database call fewer a transfer.
        let users = try await accounts.users(ids: [callerID, request.recipientID])
        guard let payer = users[callerID] else { throw Problem.unauthorized }
        guard request.currency == payer.currency else {
            throw Problem.unprocessable([.init(field: "currency", message: "The wallet holds \(payer.currency) only.")])
        }
        guard let payee = users[request.recipientID] else {
            throw Problem.unprocessable([.init(field: "recipientId", message: "There is no such recipient.")])
        }
        // A proof is used whenever one is sent; whether one was needed (the amount, or the day's total) the ledger
        // decides with the day's total in hand.
        if TransferRules.needsStepUp(amountMinor: request.amountMinor), request.stepUpToken == nil { throw Problem.stepUpRequired }
        let stepUp = request.stepUpToken.map { StepUpUse(tokenHash: SessionToken.hash($0), sessionTokenHash: sessionTokenHash) }
        let now = clock.now()
        let id = TimeOrderedID.make(at: now)
        let reference = TransferReference.make()
        let amount = Money(amountMinor: request.amountMinor, currency: request.currency).formatted()
        let payerName = ShortName.of(payer.fullName)
        let payeeName = ShortName.of(payee.fullName)
        let order = TransferOrder(
            id: id, reference: reference, payerUserID: payer.id, payeeUserID: payee.id,
            amountMinor: request.amountMinor, currency: request.currency, note: note, at: now,
            idempotencyKey: idempotencyKey.value, requestHash: requestHash, dailyLimitMinor: limits.dailyTransferLimitMinor,
            dayStart: Self.startOfUTCDay(now), stepUp: stepUp,
            payerLine: StatementLine(userID: payer.id, amountMinor: -request.amountMinor, merchant: payeeName, category: StatementLine.transferCategory),
            payeeLine: StatementLine(userID: payee.id, amountMinor: request.amountMinor, merchant: payerName, category: StatementLine.transferCategory),
            notification: NotificationRecord(
                id: TimeOrderedID.make(at: now), userID: payee.id, title: "Received \(amount) from \(payerName)",
                body: note.map { "\(payerName): \($0)" } ?? "\(payerName) sent you \(amount).", createdAt: now, readAt: nil
            )
        )
        let recipient = Recipient(id: payee.id, displayName: payeeName)
        switch try await ledger.transfer(order) {
        case .made(let transfer):
            logger.info("transfer made", metadata: ["transfer": "\(transfer.id)", "amountMinor": "\(transfer.amountMinor)"])
            return Sent(transfer: transfer, replayed: false, recipient: recipient)
        case .replayed(let transfer):
            logger.info("transfer replayed", metadata: ["transfer": "\(transfer.id)"])
            return Sent(transfer: transfer, replayed: true, recipient: recipient)
        case .keyReused:
            throw Problem.idempotencyMismatch
        case .insufficientFunds:
            throw Problem.insufficientFunds
        case .overDailyLimit(let remaining):
            let limit = Money(amountMinor: limits.dailyTransferLimitMinor, currency: request.currency).formatted()
            let left = Money(amountMinor: remaining, currency: request.currency).formatted()
            throw Problem.transferLimit("Transfers are limited to \(limit) a day; \(left) is left today.")
        case .stepUpInvalid:
            throw Problem.stepUpRequired
        case .payeeHasNoWallet:
            throw Problem.unprocessable([.init(field: "recipientId", message: "The recipient cannot receive \(request.currency).")])
        }
    }

    /// The transfer `id` with the other party as `userID` sees them (named "Skiff" when there is no other user);
    /// 404 unless `userID` sent or received it.
    func transfer(id: String, userID: String) async throws -> (transfer: TransferRecord, counterparty: Recipient) {
        guard let transfer = try await ledger.transfer(id: id, userID: userID) else { throw Problem.notFound }
        let otherID = (transfer.payerUserID == userID ? transfer.payeeUserID : transfer.payerUserID) ?? ""
        let other = try await accounts.user(id: otherID)
        return (transfer, Recipient(id: otherID, displayName: other.map { ShortName.of($0.fullName) } ?? "Skiff"))
    }

    static func perTransferLimitMessage(_ limits: SkiffServerLimits) -> String {
        "Send at most \(Money(amountMinor: limits.transferMaxMinor, currency: limits.currency).formatted()) at a time."
    }

    private static func toYourself(_ field: String) -> Problem {
        Problem.unprocessable([.init(field: field, message: "That is your own account: send money to someone else.")])
    }

    /// The start of the UTC day the daily limit counts from.
    static func startOfUTCDay(_ date: Date) -> Date { SpendingRollup.dayStart(of: date) }
}

/// A transfer's reference: `SKF-` and eight characters a person can read out (Crockford's base 32: no I, L, O, U).
enum TransferReference {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Eight characters from 40 bits of one random draw, five bits a character (the alphabet has 32).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits: UInt64 = generator.next()
        var reference = "SKF-"
        for _ in 0..<8 {
            reference.append(alphabet[Int(bits & 31)])
            bits >>= 5
        }
        return reference
    }
}
