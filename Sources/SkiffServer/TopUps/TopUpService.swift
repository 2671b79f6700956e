import Foundation
import Logging
import SkiffCore

/// Adding money from an added card: the card's checks, the card network's authorization (with the issuer's code
/// above `TransferRules.topUpChallengeAboveMinor`), then one ledger write. The network is asked before anything is
/// written, and a refusal or a timeout writes nothing, so a retry with the same key starts again and the key's unique
/// row makes it complete once (docs/decisions, "top-ups").
struct TopUpService: Sendable {
    let accounts: any AccountRepository
    let cards: any CardRepository
    let topUps: any TopUpRepository
    let codes: OneTimeCodeService
    let network: any CardNetwork
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let logger: Logger

    /// The contract's schema of a `Request`'s body.
    static let requestSchema = "TopUpRequest"

    /// What a caller asks to add.
    struct Request: Sendable {
        var cardID: String
        var amountMinor: Int64
        var currency: String
    }

    /// Starts a top-up once per `idempotencyKey` (the ledger's strategy: the key and its request hash are kept with
    /// the top-up): completed, or pending the issuer's code (sent to the caller's phone); `replayed` is true when the
    /// key made it before, for the same request.
    func create(
        _ request: Request, userID: String, clientAddress: String, idempotencyKey: IdempotencyKey
    ) async throws -> (topUp: TopUpRecord, replayed: Bool) {
        let (key, requestHash) = (idempotencyKey.value, try idempotencyKey.heldRequestHash())
        var problems = FieldProblems()
        problems.contract(Self.requestSchema, "cardId", request.cardID)
        do {
            try TransferRules.validateAmount(request.amountMinor)
        } catch {
            problems.rule("amountMinor", error.message)
        }
        if request.amountMinor > limits.topUpMaxMinor {
            problems.rule("amountMinor", Self.maxMessage(limits))
        }
        problems.contract(Self.requestSchema, "currency", request.currency)
        try problems.check()
        // Not a second check of the key (the middleware checked it, and the ledger's unique key decides below): a
        // replay is answered from its top-up before anything else is asked, so it never goes to the card network again
        // nor sends the issuer's code again (`TopUpRoutesTests`: `timeoutThenRetry`, `challenge`).
        if let earlier = try await topUps.topUp(userID: userID, idempotencyKey: key) {
            return (try answer(replaying: earlier, requestHash: requestHash), true)
        }
        guard let user = try await accounts.user(id: userID) else { throw Problem.unauthorized }
        guard request.currency == user.currency else {
            throw Problem.unprocessable([.init(field: "currency", message: "The wallet holds \(user.currency) only.")])
        }
        guard let card = try await cards.card(id: request.cardID, userID: userID) else {
            throw Problem.unprocessable([.init(field: "cardId", message: "There is no such card on your account.")])
        }
        try checkUsable(card)
        let now = clock.now()
        let id = UUID().uuidString.lowercased()
        var topUp = TopUpRecord(
            id: id, userID: userID, cardID: card.id, cardBrand: card.brand, cardLast4: card.last4,
            amountMinor: request.amountMinor, currency: request.currency, status: .pending, idempotencyKey: key,
            requestHash: requestHash, createdAt: now
        )
        let authorization = try await authorize(topUp, verified: false, key: "topup:\(userID):\(key):\(requestHash)")
        let order: TopUpOrder
        switch authorization {
        case .declined(let reason):
            logger.info("top-up declined", metadata: ["card": "\(card.id)", "reason": "\(reason.rawValue)"])
            throw Problem.cardDeclined(reason.message)
        case .challenge:
            let challenge = try await codes.issue(
                phone: user.phone, countryCode: user.countryCode, purpose: .topUp, userID: userID, address: clientAddress,
                subject: id
            )
            topUp.verificationID = challenge.verificationID
            topUp.verificationExpiresAt = challenge.expiresAt
            order = TopUpOrder(topUp: topUp, completion: nil)
        case .approved(let authorizationID):
            let completion = completion(of: topUp, authorizationID: authorizationID, at: now)
            topUp.status = .completed
            topUp.transferID = completion.transferID
            topUp.reference = completion.reference
            topUp.authorizationID = authorizationID
            topUp.completedAt = now
            order = TopUpOrder(topUp: topUp, completion: completion)
        }
        switch try await topUps.create(order) {
        case .made(let made):
            logger.info("top-up \(made.status.rawValue)", metadata: ["topUp": "\(made.id)", "amountMinor": "\(made.amountMinor)"])
            return (made, false)
        case .replayed(let earlier):
            return (try answer(replaying: earlier, requestHash: requestHash), true)
        case .keyReused:
            throw Problem.idempotencyMismatch
        case .noWallet:
            throw Problem.unprocessable([.init(field: "currency", message: "The wallet cannot receive \(request.currency).")])
        }
    }

    /// Completes the pending top-up `id` with the issuer's `code`. The code is consumed bound to the top-up, so the
    /// same code sent again (a lost answer, a network that did not answer, a server killed after the code was used)
    /// carries on from where the top-up stands: authorize with the same key, then one ledger write.
    func confirm(id: String, code: String, userID: String) async throws -> TopUpRecord {
        try AuthService.validateCode(code)
        guard let pending = try await topUps.topUp(id: id, userID: userID) else { throw Problem.notFound }
        guard let verificationID = pending.verificationID else { throw Problem.codeExpired }
        try await codes.consume(
            id: verificationID, code: code, purpose: .topUp,
            matches: { $0.userID == userID && $0.subject == id }, replayKey: "topup:" + id
        )
        switch pending.status {
        case .completed: return pending
        case .declined: throw Problem.cardDeclined(Self.declineMessage(pending.declineReason))
        case .pending: break
        }
        guard let card = try await cards.card(id: pending.cardID, userID: userID) else {
            throw Problem.cardNotUsable("This card was removed from your account.")
        }
        try checkUsable(card)
        let now = clock.now()
        switch try await authorize(pending, verified: true, key: "topup-confirm:" + id) {
        case .approved(let authorizationID):
            guard let done = try await topUps.complete(
                id: id, userID: userID, completion(of: pending, authorizationID: authorizationID, at: now)
            ) else { throw Problem.notFound }
            if done.status == .declined { throw Problem.cardDeclined(Self.declineMessage(done.declineReason)) }
            logger.info("top-up confirmed", metadata: ["topUp": "\(id)", "status": "\(done.status.rawValue)"])
            return done
        case .declined(let reason):
            let done = try await topUps.decline(id: id, userID: userID, reason: reason.rawValue, at: now)
            logger.info("top-up declined", metadata: ["topUp": "\(id)", "reason": "\(reason.rawValue)"])
            if let done, done.status == .completed { return done }
            throw Problem.cardDeclined(reason.message)
        case .challenge:
            // The issuer asks again after its own code: treated as its refusal.
            let done = try await topUps.decline(id: id, userID: userID, reason: CardDeclineReason.generic.rawValue, at: now)
            if let done, done.status == .completed { return done }
            throw Problem.cardDeclined(CardDeclineReason.generic.message)
        }
    }

    func topUp(id: String, userID: String) async throws -> TopUpRecord {
        guard let topUp = try await topUps.topUp(id: id, userID: userID) else { throw Problem.notFound }
        return topUp
    }

    /// The earlier top-up of the same key, answered again for the same request; 422 for another.
    private func answer(replaying earlier: TopUpRecord, requestHash: String) throws -> TopUpRecord {
        guard constantTimeEquals(earlier.requestHash, requestHash) else { throw Problem.idempotencyMismatch }
        if earlier.status == .declined { throw Problem.cardDeclined(Self.declineMessage(earlier.declineReason)) }
        return earlier
    }

    /// Refuses a card money cannot come from: the Skiff card itself, a frozen or an expired one.
    private func checkUsable(_ card: CardRecord) throws {
        let refusal = TopUpSource.refusal(
            issuedBySkiff: card.kind != .external, frozen: card.frozen, expiryMonth: card.expiryMonth,
            expiryYear: card.expiryYear, now: clock.now()
        )
        switch refusal {
        case .skiffCard: throw Problem.cardNotUsable("The Skiff card spends from the wallet: top up from a card you added.")
        case .frozen: throw Problem.cardNotUsable("This card is frozen: unfreeze it to top up from it.")
        case .expired: throw Problem.cardNotUsable("This card has expired: add the new one.")
        case nil: break
        }
    }

    private func authorize(_ topUp: TopUpRecord, verified: Bool, key: String) async throws -> CardAuthorization {
        do {
            return try await network.authorize(CardAuthorizationRequest(
                cardID: topUp.cardID, brand: topUp.cardBrand, last4: topUp.cardLast4, amountMinor: topUp.amountMinor,
                currency: topUp.currency, cardholderVerified: verified, idempotencyKey: key
            ))
        } catch CardNetworkError.timedOut {
            logger.warning("card network timed out", metadata: ["card": "\(topUp.cardID)"])
            throw Problem.cardNetworkUnavailable
        }
    }

    /// The ledger's part of an authorized top-up: the transfer, the statement line and the notification.
    private func completion(of topUp: TopUpRecord, authorizationID: String, at now: Date) -> TopUpCompletion {
        let cardName = Self.cardName(brand: topUp.cardBrand, last4: topUp.cardLast4)
        let amount = Money(amountMinor: topUp.amountMinor, currency: topUp.currency).formatted()
        return TopUpCompletion(
            transferID: TimeOrderedID.make(at: now), reference: TransferReference.make(),
            authorizationID: authorizationID, at: now,
            line: StatementLine(userID: topUp.userID, amountMinor: topUp.amountMinor, merchant: cardName, category: StatementLine.topUpCategory),
            notification: NotificationRecord(
                id: TimeOrderedID.make(at: now), userID: topUp.userID, title: "Added \(amount) from \(cardName)",
                body: "\(amount) from \(cardName) is in your wallet.", createdAt: now, readAt: nil
            )
        )
    }

    /// `Visa •••• 4242`: brand and last four, never more.
    static func cardName(brand: String, last4: String) -> String {
        guard let known = CardBrand(rawValue: brand) else { return "Card " + CardNumber.mask(last4: last4) }
        return CardNumber.name(brand: known, last4: last4)
    }

    static func declineMessage(_ stored: String?) -> String {
        (stored.flatMap(CardDeclineReason.init(rawValue:)) ?? .generic).message
    }

    static func maxMessage(_ limits: SkiffServerLimits) -> String {
        "Add at most \(Money(amountMinor: limits.topUpMaxMinor, currency: limits.currency).formatted()) at a time."
    }
}
