import Foundation
import Logging
import SkiffAPI
import SkiffCore

/// Adding, removing, freezing and activating cards. A card's number never reaches this server: the wallet tokenizes
/// it at the card network, and only the token comes here.
struct CardService: Sendable {
    let cards: any CardRepository
    let accounts: any AccountRepository
    let notifications: any NotificationRepository
    let codes: OneTimeCodeService
    let network: any CardNetwork
    let customers: NetworkCustomers
    let clock: any ServerClock
    let logger: Logger

    /// What the client sent to add a card: the network's token for it (the wallet tokenized the number at the network
    /// itself) and the holder's name. `Redacted`: printing it shows neither.
    struct NewCard: Sendable, Redacted {
        var cardToken: String
        var holderName: String
    }

    /// The user's cards, the issued one first, then by age.
    func cards(userID: String) async throws -> [CardRecord] {
        try await cards.cards(userID: userID)
    }

    /// Attaches the tokenized card to the user's customer at the network and keeps what the network says of it:
    /// brand, last four, expiry, its id and fingerprint. Refused: a malformed token or holder name (400; a holder name
    /// with digits 422), a decline
    /// (402), an expired card (422), a card already on this account or on another one (409).
    func add(_ input: NewCard, userID: String, idempotencyKey: String) async throws -> CardRecord {
        let now = clock.now()
        var problems = FieldProblems()
        if !input.cardToken.hasPrefix("tok_") || input.cardToken.count > 200 {
            problems.schema("cardToken", "Send the token the card network gave for the card (tok_…), not the card.")
        }
        var holder = ""
        do { holder = try CardHolderName.validate(input.holderName) } catch {
            // Digits are a rule the contract states in words (a `PersonName` may hold them): 422, not 400.
            if error == .digits { problems.rule("holderName", error.message) } else { problems.schema("holderName", error.message) }
        }
        try problems.check()

        let customerID = try await customers.id(userID: userID)
        let attached: NetworkCard
        do {
            switch try await network.attach(
                token: input.cardToken, customerID: customerID, idempotencyKey: "skiff-card-\(userID)-\(idempotencyKey)"
            ) {
            case .attached(let card): attached = card
            case .declined(let reason):
                logger.info("card declined at the network", metadata: ["user": "\(userID)", "reason": "\(reason.rawValue)"])
                throw Problem.cardDeclined(reason.message, field: "cardToken")
            }
        } catch let error as CardNetworkError {
            throw Problem(networkError: error, field: "cardToken", logger: logger)
        }
        guard let expiry = try? CardExpiry(month: attached.expiryMonth, year: attached.expiryYear, now: now) else {
            throw Problem.unprocessable([.init(field: "cardToken", message: "This card has expired: add the new one.")])
        }
        let brand = attached.brand ?? .unknown
        let card = CardRecord(
            id: UUID().uuidString.lowercased(), userID: userID, kind: .external, brand: brand.rawValue,
            last4: attached.last4, expiryMonth: expiry.month, expiryYear: expiry.year, holderName: holder, status: .active,
            fingerprint: attached.fingerprint, createdAt: now, networkCardID: attached.id
        )
        let added = NotificationRecord(
            id: UUID().uuidString.lowercased(), userID: userID, title: "Card added",
            body: "\(CardNumber.name(brand: brand, last4: attached.last4)) is on your account.", createdAt: now, readAt: nil
        )
        do {
            try await cards.insert(card, announcing: added)
        } catch RepositoryError.duplicate {
            throw try await cards.owner(ofExternalCard: card.fingerprint) == userID ? Problem.duplicateCard : Problem.cardOnAnotherAccount
        }
        logger.info("card added", metadata: ["user": "\(userID)", "card": "\(card.id)"])
        return card
    }

    /// Removes an external card; the issued card stays.
    func delete(id: String, userID: String) async throws {
        let card = try await card(id: id, userID: userID)
        guard card.kind == .external else { throw Problem.cardNotRemovable }
        try await cards.delete(id: id, userID: userID)
        logger.info("card removed", metadata: ["user": "\(userID)", "card": "\(id)"])
    }

    /// Freezes or unfreezes the card; asking for what it already is answers the card unchanged.
    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws -> CardRecord {
        var card = try await card(id: cardID, userID: userID)
        guard card.frozen != frozen else { return card }
        try await cards.setFrozen(frozen, cardID: cardID, userID: userID)
        card.frozen = frozen
        logger.info(frozen ? "card frozen" : "card unfrozen", metadata: ["user": "\(userID)", "card": "\(cardID)"])
        return card
    }

    /// Sends a code to the user's phone to activate their inactive issued card, once `last4` is checked: malformed
    /// or not the card's, it is refused on the field and no code is sent (nor counted against the code limits). It
    /// guards no secret (the card list shows the last four to the same session); it keeps a mistyped card from
    /// spending a code the person would then have to wait for.
    func startActivation(
        cardID: String, userID: String, last4: String, clientAddress: String
    ) async throws -> OneTimeCodeService.Challenge {
        do { _ = try CardLastFour.validate(last4) } catch {
            throw Problem.validation(field: "last4", error.message)
        }
        let card = try await card(id: cardID, userID: userID)
        try Self.requireActivatable(card)
        guard constantTimeEquals(last4, card.last4) else {
            logger.info("card activation refused: last four", metadata: ["user": "\(userID)", "card": "\(cardID)"])
            throw Problem.unprocessable([.init(field: "last4", message: CardLastFour.Problem.mismatch.message)])
        }
        guard let user = try await accounts.user(id: userID) else { throw Problem.unauthorized }
        return try await codes.issue(
            phone: user.phone, countryCode: user.countryCode, purpose: .cardActivation, userID: userID,
            address: clientAddress, subject: cardID
        )
    }

    /// Only the issued card, inactive and not frozen, is activated: asking for a code and activating check it alike.
    private static func requireActivatable(_ card: CardRecord) throws {
        guard card.kind == .issued, card.status == .inactive else { throw Problem.cardAlreadyActive }
        guard !card.frozen else { throw Problem.cardFrozen }
    }

    /// Activates the card when the last four digits and the code are right; a wrong last four counts as a
    /// wrong try on the code, so neither can be guessed.
    func activate(cardID: String, userID: String, last4: String, verificationID: String, code: String) async throws
        -> CardRecord
    {
        var errors: [Problem.FieldError] = []
        do { _ = try CardLastFour.validate(last4) } catch { errors.append(.init(field: "last4", message: error.message)) }
        do { try AuthService.validateCode(code) } catch let problem as Problem { errors += problem.errors }
        guard errors.isEmpty else { throw Problem.validation(errors) }
        var card = try await card(id: cardID, userID: userID)
        try Self.requireActivatable(card)
        let last4Matches = constantTimeEquals(last4, card.last4)
        do {
            try await codes.consume(
                id: verificationID, code: code, purpose: .cardActivation,
                matches: { $0.userID == userID && $0.subject == cardID }, alsoRequired: last4Matches
            )
        } catch let problem as Problem where problem.kind == .invalidCode && !last4Matches {
            throw Problem(
                status: .unprocessableContent, kind: .validation, title: "Some fields are not valid.", detail: problem.detail,
                errors: [.init(field: "last4", message: CardLastFour.Problem.mismatch.message)]
            )
        }
        try await cards.setStatus(.active, cardID: cardID, userID: userID)
        card.status = .active
        try await notifications.insert(NotificationRecord(
            id: UUID().uuidString.lowercased(), userID: userID, title: "Card activated",
            body: "Your Skiff card \(CardNumber.mask(last4: card.last4)) is ready to use.", createdAt: clock.now(), readAt: nil
        ))
        logger.info("card activated", metadata: ["user": "\(userID)", "card": "\(cardID)"])
        return card
    }

    /// The user's card, or 404 — also for another user's card.
    func card(id: String, userID: String) async throws -> CardRecord {
        guard let card = try await cards.card(id: id, userID: userID) else { throw Problem.notFound }
        return card
    }
}
