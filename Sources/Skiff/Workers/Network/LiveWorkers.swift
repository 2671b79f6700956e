import Foundation
import SkiffAPI
import SkiffCore

/// Auth over the generated client.
public struct AuthWorker: AuthWorking {
    private let api: APIClient

    public init(api: APIClient) {
        self.api = api
    }

    public func login(phone: PhoneNumber, password: String) async throws(NetworkError) -> Session {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.login(body: .json(.init(
                countryCode: "+" + phone.countryCode, phoneNumber: phone.nationalNumber, password: password
            )))
        }
        switch output {
        case .ok(let ok): return try await Self.session(NetworkErrorMapping.call { try ok.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func register(_ registration: Registration, idempotencyKey: String) async throws(NetworkError) -> VerificationChallenge {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.register(
                headers: .init(idempotencyKey: idempotencyKey),
                body: .json(.init(
                    countryCode: "+" + registration.phone.countryCode, phoneNumber: registration.phone.nationalNumber,
                    fullName: registration.fullName, password: registration.password
                ))
            )
        }
        switch output {
        case .accepted(let accepted): return Self.challenge(try await NetworkErrorMapping.call { try accepted.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func verifyRegistration(verificationId: String, code: String) async throws(NetworkError) -> Session {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.verifyRegistration(body: .json(.init(verificationId: verificationId, code: code)))
        }
        switch output {
        case .created(let created): return try await Self.session(NetworkErrorMapping.call { try created.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func forgotPassword(phone: PhoneNumber) async throws(NetworkError) -> VerificationChallenge {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.forgotPassword(body: .json(.init(countryCode: "+" + phone.countryCode, phoneNumber: phone.nationalNumber)))
        }
        switch output {
        case .accepted(let accepted): return Self.challenge(try await NetworkErrorMapping.call { try accepted.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func resetPassword(verificationId: String, code: String, newPassword: String) async throws(NetworkError) {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.resetPassword(body: .json(.init(verificationId: verificationId, code: code, newPassword: newPassword)))
        }
        switch output {
        case .noContent: return
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func logout() async throws(NetworkError) {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.logout() }
        switch output {
        case .noContent: return
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    static func session(_ s: Components.Schemas.Session) -> Session {
        Session(token: s.token, expiresAt: s.expiresAt, user: user(s.user))
    }

    static func user(_ u: Components.Schemas.User) -> User {
        User(id: u.id, fullName: u.fullName, countryCode: u.countryCode, phoneNumber: u.phoneNumber)
    }

    static func challenge(_ c: Components.Schemas.VerificationChallenge) -> VerificationChallenge {
        VerificationChallenge(verificationId: c.verificationId, expiresAt: c.expiresAt)
    }
}

/// The account summary and transactions over the generated client.
public struct AccountWorker: AccountWorking {
    private let api: APIClient

    public init(api: APIClient) {
        self.api = api
    }

    public func summary() async throws(NetworkError) -> AccountSummary {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.getMe() }
        switch output {
        case .ok(let ok):
            let me = try await NetworkErrorMapping.call { try ok.body.json }
            return AccountSummary(
                user: AuthWorker.user(me.user),
                balance: Money(amountMinor: me.balance.amountMinor, currency: me.balance.currency),
                unreadNotifications: me.unreadNotifications
            )
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func transactions(limit: Int, cursor: String?, query: String?) async throws(NetworkError) -> TransactionPage {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.listTransactions(query: .init(limit: Int32(limit), cursor: cursor, query: query))
        }
        switch output {
        case .ok(let ok):
            let page = try await NetworkErrorMapping.call { try ok.body.json }
            return TransactionPage(
                items: page.items.map {
                    Transaction(
                        id: $0.id, amount: Money(amountMinor: $0.amountMinor, currency: $0.currency),
                        merchant: $0.merchant, category: $0.category, createdAt: $0.createdAt
                    )
                },
                nextCursor: page.nextCursor
            )
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }
}

/// Cards over the generated client. The number and security code go out once, in the request body, and are
/// never kept or logged.
public struct CardWorker: CardWorking {
    private let api: APIClient

    public init(api: APIClient) {
        self.api = api
    }

    public func cards() async throws(NetworkError) -> [Card] {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.listCards() }
        switch output {
        case .ok(let ok): return try await NetworkErrorMapping.call { try ok.body.json }.map(Self.card)
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.addCard(
                headers: .init(idempotencyKey: idempotencyKey),
                body: .json(.init(
                    number: card.number.digits, expiryMonth: card.expiry.month, expiryYear: card.expiry.year,
                    cvc: card.securityCode, holderName: card.holderName
                ))
            )
        }
        switch output {
        case .created(let created): return Self.card(try await NetworkErrorMapping.call { try created.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func requestActivation(cardID: String) async throws(NetworkError) -> VerificationChallenge {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.startCardActivation(path: .init(id: cardID)) }
        switch output {
        case .accepted(let accepted): return AuthWorker.challenge(try await NetworkErrorMapping.call { try accepted.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card {
        let client = api.client
        let output = try await NetworkErrorMapping.call {
            try await client.activateCard(
                path: .init(id: cardID), body: .json(.init(last4: last4, verificationId: verificationId, code: code))
            )
        }
        switch output {
        case .ok(let ok): return Self.card(try await NetworkErrorMapping.call { try ok.body.json })
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    static func card(_ c: Components.Schemas.Card) -> Card {
        Card(
            id: c.id,
            kind: c.kind == .issued ? .issued : .external,
            brand: CardBrand(rawValue: c.brand) ?? .unknown,
            last4: c.last4, expiryMonth: c.expiryMonth, expiryYear: c.expiryYear, holderName: c.holderName,
            status: c.status == .active ? .active : .inactive
        )
    }
}

/// Notifications over the generated client.
public struct NotificationsWorker: NotificationsWorking {
    private let api: APIClient

    public init(api: APIClient) {
        self.api = api
    }

    public func notifications() async throws(NetworkError) -> [AppNotification] {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.listNotifications() }
        switch output {
        case .ok(let ok):
            return try await NetworkErrorMapping.call { try ok.body.json }.map {
                AppNotification(id: $0.id, title: $0.title, body: $0.body, createdAt: $0.createdAt, read: $0.read)
            }
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }

    public func markRead(id: String) async throws(NetworkError) {
        let client = api.client
        let output = try await NetworkErrorMapping.call { try await client.markNotificationRead(path: .init(id: id)) }
        switch output {
        case .noContent: return
        case .default(let status, let problem): throw problem.networkError(status: status)
        }
    }
}
