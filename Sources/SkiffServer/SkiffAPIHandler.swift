import Foundation
import Logging
import SkiffAPI

/// Implements the generated `APIProtocol`: decodes what the contract delivers, calls the services, and
/// maps their records to the contract's types. Errors are thrown as `Problem`s. It reads no repository and no
/// middleware's type: the request's context comes as `Caller`, `IdempotencyKey` and `ClientAddress`.
/// A class: the generated server copies its handler for every operation, and a struct of nine services was 3 % of an
/// authenticated read's CPU in copies and releases (issue 47's profile).
final class SkiffAPIHandler: APIProtocol, Sendable {
    let auth: AuthService
    let accounts: AccountService
    let transactions: TransactionService
    let spending: SpendingService
    let notifications: NotificationService
    let cardService: CardService
    let transfers: TransferService
    let topUps: TopUpService
    let events: EventStreams

    init(
        auth: AuthService, accounts: AccountService, transactions: TransactionService, spending: SpendingService,
        notifications: NotificationService, cardService: CardService, transfers: TransferService, topUps: TopUpService,
        events: EventStreams
    ) {
        self.auth = auth
        self.accounts = accounts
        self.transactions = transactions
        self.spending = spending
        self.notifications = notifications
        self.cardService = cardService
        self.transfers = transfers
        self.topUps = topUps
        self.events = events
    }
}

extension UserRecord {
    var api: Components.Schemas.User {
        .init(id: id, fullName: fullName, countryCode: "+" + countryCode, phoneNumber: nationalNumber)
    }
}

extension CardRecord {
    var api: Components.Schemas.Card {
        .init(
            id: id, kind: kind == .issued ? .issued : .external, brand: brand, last4: last4, expiryMonth: expiryMonth,
            expiryYear: expiryYear, holderName: holderName, status: status == .active ? .active : .inactive,
            frozen: frozen
        )
    }
}

extension OneTimeCodeService.Challenge {
    var api: Components.Schemas.VerificationChallenge {
        .init(verificationId: verificationID, expiresAt: expiresAt)
    }
}

extension AuthService.SignedIn {
    var api: Components.Schemas.Session {
        .init(token: token, expiresAt: expiresAt, user: user.api)
    }
}
