import Foundation
import Logging
import SkiffCore

/// Adding money from an added card: a payment at the card network, then one ledger write, exactly once per
/// Idempotency-Key (docs/decisions, "top-ups through a card network").
///
/// The top-up's row is written first (pending), then the payment is made at the network unconfirmed and its id kept,
/// then it is confirmed. Whatever is lost on the way (an answer, the server), the same key carries on from where the
/// row stands: a payment made but not kept was never confirmed, so charged nothing. A payment that succeeded is
/// credited by `Ledger.complete`, which writes once however many callers arrive: the request, its retry, the webhook,
/// a read of the top-up.
struct TopUpService: Sendable {
    let accounts: any AccountRepository
    let cards: any CardRepository
    let topUps: any TopUpRepository
    let network: any CardNetwork
    let customers: NetworkCustomers
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

    /// Starts or carries on the top-up of `idempotencyKey`: completed, or pending while the card's holder confirms it
    /// (`actionURL`) or the network works; `replayed` is true when the key made it before, for the same request. A
    /// decline throws 402, a network that did not answer 503 (the same key carries on).
    func create(
        _ request: Request, userID: String, idempotencyKey: IdempotencyKey
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
        // A replay carries on from where its top-up stands, never a second payment (`TopUpRoutesTests`).
        if let earlier = try await topUps.topUp(userID: userID, idempotencyKey: key) {
            guard constantTimeEquals(earlier.requestHash, requestHash) else { throw Problem.idempotencyMismatch }
            return (try await settle(earlier, declineThrows: true), true)
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
        try await checkVelocity(amountMinor: request.amountMinor, userID: userID, card: card, now: now)
        let topUp = TopUpRecord(
            id: UUID().uuidString.lowercased(), userID: userID, cardID: card.id, cardBrand: card.brand,
            cardLast4: card.last4, amountMinor: request.amountMinor, currency: request.currency, status: .pending,
            cardFingerprint: card.fingerprint, idempotencyKey: key, requestHash: requestHash, createdAt: now
        )
        switch try await topUps.create(TopUpOrder(topUp: topUp, completion: nil)) {
        case .made(let made):
            logger.info("top-up started", metadata: ["topUp": "\(made.id)", "amountMinor": "\(made.amountMinor)"])
            return (try await settle(made, declineThrows: true), false)
        case .replayed(let earlier):
            return (try await settle(earlier, declineThrows: true), true)
        case .keyReused:
            throw Problem.idempotencyMismatch
        case .noWallet:
            throw Problem.unprocessable([.init(field: "currency", message: "The wallet cannot receive \(request.currency).")])
        }
    }

    /// The user's top-up as it stands; a pending one is first asked of the network, so a top-up whose webhook never
    /// came completes when read. A network that does not answer leaves it as it was.
    func topUp(id: String, userID: String) async throws -> TopUpRecord {
        guard let topUp = try await topUps.topUp(id: id, userID: userID) else { throw Problem.notFound }
        guard topUp.status == .pending, topUp.paymentID != nil else { return topUp }
        do {
            return try await settle(topUp, declineThrows: false)
        } catch let problem as Problem where problem.kind == .cardNetworkUnavailable {
            return topUp
        }
    }

    /// A webhook from the network: its signature checked, the payment it names settled, its id kept so a repeated
    /// delivery does nothing. The event's content is only news that something changed: the payment's state is asked
    /// of the network, so deliveries out of order cannot undo each other.
    func receiveWebhook(body: [UInt8], signature: String?) async throws {
        let now = clock.now()
        let event: CardNetworkEvent
        do {
            event = try network.webhookEvent(body: body, signature: signature, now: now)
        } catch {
            logger.warning("card network webhook refused", metadata: ["reason": "\(error)"])
            // A body that is not an event the network would send is the sender's mistake, as a bad signature is.
            if case .refused(_, let message) = error { throw Problem.badRequest(message) }
            throw Problem(networkError: error, field: nil, logger: nil)
        }
        guard try await !topUps.handledEvent(id: event.id) else { return }
        if let paymentID = event.paymentID, let topUp = try await topUps.topUp(paymentID: paymentID), topUp.status == .pending {
            let settled = try await settle(topUp, declineThrows: false)
            logger.info("top-up settled by the network's webhook", metadata: [
                "topUp": "\(topUp.id)", "status": "\(settled.status.rawValue)",
            ])
        }
        try await topUps.recordEvent(id: event.id, at: now)
    }

    // MARK: Settling

    /// Takes a pending top-up as far as the network lets it: makes its payment if it has none, confirms it if it is
    /// unconfirmed, and completes or declines it once the network has decided. Answers it as it then stands; a
    /// declined one throws 402 when `declineThrows`.
    private func settle(_ topUp: TopUpRecord, declineThrows: Bool) async throws -> TopUpRecord {
        var topUp = topUp
        if topUp.status == .pending {
            let state: CardPaymentState
            do {
                (topUp, state) = try await paymentState(of: topUp)
            } catch let error as CardNetworkError {
                throw Problem(networkError: error, field: "cardId", logger: logger)
            }
            topUp = try await apply(state, to: topUp)
        }
        if topUp.status == .declined && declineThrows {
            throw Problem.cardDeclined((topUp.declineReason.flatMap(CardDeclineReason.init(rawValue:)) ?? .generic).message)
        }
        return topUp
    }

    /// The payment of a pending top-up, made and confirmed if it was not yet, and where it stands.
    private func paymentState(of topUp: TopUpRecord) async throws -> (TopUpRecord, CardPaymentState) {
        var topUp = topUp
        let confirmKey = "skiff-topup-\(topUp.id)-confirm"
        guard let paymentID = topUp.paymentID else {
            guard let card = try await cards.card(id: topUp.cardID, userID: topUp.userID) else {
                throw Problem.cardNotUsable("This card was removed from your account.")
            }
            try checkUsable(card)
            guard let networkCardID = card.networkCardID else {
                throw Problem.cardNotUsable("This card was added before Skiff used a card network: remove it and add it again.")
            }
            let made = try await network.makePayment(CardPaymentRequest(
                customerID: try await customers.id(userID: topUp.userID), cardID: networkCardID,
                amountMinor: topUp.amountMinor, currency: topUp.currency, topUpID: topUp.id,
                idempotencyKey: "skiff-topup-\(topUp.id)-payment"
            ))
            guard let kept = try await topUps.recordPayment(id: topUp.id, userID: topUp.userID, paymentID: made, actionURL: nil)
            else { throw Problem.notFound }
            topUp = kept
            // Another caller may have kept its payment first: that one is confirmed, this one never is.
            return (topUp, try await network.confirm(paymentID: kept.paymentID ?? made, idempotencyKey: confirmKey))
        }
        let state = try await network.payment(id: paymentID)
        if state == .unconfirmed { return (topUp, try await network.confirm(paymentID: paymentID, idempotencyKey: confirmKey)) }
        return (topUp, state)
    }

    /// Writes what the network decided: the money's move once it succeeded, the decline, or where the holder confirms.
    private func apply(_ state: CardPaymentState, to topUp: TopUpRecord) async throws -> TopUpRecord {
        let now = clock.now()
        switch state {
        case .succeeded:
            guard let done = try await topUps.complete(
                id: topUp.id, userID: topUp.userID, completion(of: topUp, paymentID: topUp.paymentID ?? "", at: now)
            ) else { throw Problem.notFound }
            if done.status == .completed { logger.info("top-up completed", metadata: ["topUp": "\(topUp.id)"]) }
            return done
        case .declined(let reason):
            logger.info("top-up declined", metadata: ["topUp": "\(topUp.id)", "reason": "\(reason.rawValue)"])
            return try await topUps.decline(id: topUp.id, userID: topUp.userID, reason: reason.rawValue, at: now) ?? topUp
        case .needsAction(let url):
            guard topUp.actionURL != url, let paymentID = topUp.paymentID else { return topUp }
            return try await topUps.recordPayment(id: topUp.id, userID: topUp.userID, paymentID: paymentID, actionURL: url)
                ?? topUp
        case .processing, .unconfirmed:
            return topUp
        }
    }

    // MARK: Rules

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

    /// Refuses a top-up that would take this account's, or this card's on any account, top-ups of the last 24 hours
    /// past their count or amount (`SkiffServerLimits.topUpVelocity`): a stolen card cannot be cashed out quickly,
    /// nor through many accounts one after the other.
    private func checkVelocity(amountMinor: Int64, userID: String, card: CardRecord, now: Date) async throws {
        let since = now.addingTimeInterval(-24 * 3600)
        let velocity = limits.topUpVelocity
        let checks: [(TopUpTotals, TopUpVelocity.Limit, String)] = [
            (try await topUps.totals(userID: userID, since: since), velocity.perAccount, "this account"),
            (try await topUps.totals(cardFingerprint: card.fingerprint, since: since), velocity.perCard, "one card"),
        ]
        for (totals, limit, whose) in checks {
            let amount = { Money(amountMinor: $0, currency: limits.currency).formatted() }
            if totals.count >= limit.count {
                throw Problem.topUpLimit("At most \(limit.count) top-ups from \(whose) in 24 hours: try again later.")
            }
            if totals.amountMinor.addingReportingOverflow(amountMinor).partialValue > limit.amountMinor {
                let left = max(0, limit.amountMinor - totals.amountMinor)
                throw Problem.topUpLimit("At most \(amount(limit.amountMinor)) from \(whose) in 24 hours: "
                    + "\(amount(left)) more can be added now.")
            }
        }
    }

    /// The ledger's part of a paid top-up: the transfer, the statement line and the notification.
    private func completion(of topUp: TopUpRecord, paymentID: String, at now: Date) -> TopUpCompletion {
        let cardName = Self.cardName(brand: topUp.cardBrand, last4: topUp.cardLast4)
        let amount = Money(amountMinor: topUp.amountMinor, currency: topUp.currency).formatted()
        return TopUpCompletion(
            transferID: TimeOrderedID.make(at: now), reference: TransferReference.make(),
            authorizationID: paymentID, at: now,
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

    static func maxMessage(_ limits: SkiffServerLimits) -> String {
        "Add at most \(Money(amountMinor: limits.topUpMaxMinor, currency: limits.currency).formatted()) at a time."
    }
}
