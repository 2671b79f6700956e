import Foundation
import SkiffAPI
import SkiffCore

/// Auth over the generated client.
struct AuthWorker: AuthWorking {
    private let api: APIClient

    init(api: APIClient) {
        self.api = api
    }

    func login(phone: PhoneNumber, password: String) async throws(NetworkError) -> Session {
        try await api.send { client in
            try await client.login(body: .json(.init(
                countryCode: "+" + phone.countryCode, phoneNumber: phone.nationalNumber, password: password
            )))
        } success: { Self.session(try $0.ok.body.json) }
    }

    func register(_ registration: Registration, idempotencyKey: String) async throws(NetworkError) -> VerificationChallenge {
        try await api.send { client in
            try await client.register(
                headers: .init(idempotencyKey: idempotencyKey),
                body: .json(.init(
                    countryCode: "+" + registration.phone.countryCode, phoneNumber: registration.phone.nationalNumber,
                    fullName: registration.fullName, password: registration.password
                ))
            )
        } success: { Self.challenge(try $0.accepted.body.json) }
    }

    func verifyRegistration(verificationId: String, code: String, idempotencyKey: String) async throws(NetworkError) -> Session {
        try await api.send { client in
            try await client.verifyRegistration(
                headers: .init(idempotencyKey: idempotencyKey), body: .json(.init(verificationId: verificationId, code: code))
            )
        } success: { Self.session(try $0.created.body.json) }
    }

    func forgotPassword(phone: PhoneNumber) async throws(NetworkError) -> VerificationChallenge {
        try await api.send { client in
            try await client.forgotPassword(body: .json(.init(countryCode: "+" + phone.countryCode, phoneNumber: phone.nationalNumber)))
        } success: { Self.challenge(try $0.accepted.body.json) }
    }

    func resetPassword(verificationId: String, code: String, newPassword: String, idempotencyKey: String) async throws(NetworkError) {
        try await api.send { client in
            try await client.resetPassword(
                headers: .init(idempotencyKey: idempotencyKey),
                body: .json(.init(verificationId: verificationId, code: code, newPassword: newPassword))
            )
        } success: { _ = try $0.noContent }
    }

    func logout() async throws(NetworkError) {
        try await api.send { try await $0.logout() } success: { _ = try $0.noContent }
    }

    func lock() async throws(NetworkError) {
        try await api.send { try await $0.lockSession() } success: { _ = try $0.noContent }
    }

    func unlock(password: String) async throws(NetworkError) {
        try await api.send { try await $0.unlockSession(body: .json(.init(password: password))) } success: { _ = try $0.noContent }
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
struct AccountWorker: AccountWorking {
    private let api: APIClient

    init(api: APIClient) {
        self.api = api
    }

    func summary() async throws(NetworkError) -> AccountSummary {
        let me = try await api.send { try await $0.getMe() } success: { try $0.ok.body.json }
        return AccountSummary(
            user: AuthWorker.user(me.user),
            balance: Money(amountMinor: me.balance.amountMinor, currency: me.balance.currency),
            unreadNotifications: me.unreadNotifications
        )
    }

    func transactions(limit: Int, cursor: String?, query: String?) async throws(NetworkError) -> TransactionPage {
        let page = try await api.send { client in
            try await client.listTransactions(query: .init(limit: Int32(limit), cursor: cursor, query: query))
        } success: { try $0.ok.body.json }
        return TransactionPage(
            items: page.items.map(Transaction.init(api:)),
            nextCursor: page.nextCursor,
            searchLimit: page.searchLimit.map(Int.init)
        )
    }

    func spending() async throws(NetworkError) -> MonthlySpending {
        let spending = try await api.send { try await $0.getSpending(query: .init()) } success: { try $0.ok.body.json }
        let sameDays = spending.previousSameDays
        // `YYYY-MM-DD`: the day of the month is the last two digits.
        guard let first = Int(sameDays.from.suffix(2)), let last = Int(sameDays.through.suffix(2)), first <= last else {
            throw .server(status: 200, detail: "Unreadable answer")
        }
        return MonthlySpending(
            month: spending.month,
            categories: spending.categories.map {
                MonthlySpending.Category(name: $0.category, amount: Money(amountMinor: $0.amountMinor, currency: $0.currency))
            },
            totals: spending.totals.map { Money(amountMinor: $0.amountMinor, currency: $0.currency) },
            previousMonth: spending.previousMonth,
            previousDays: first...last,
            previousDaysTotals: sameDays.totals.map { Money(amountMinor: $0.amountMinor, currency: $0.currency) }
        )
    }
}

/// Cards over the generated client. A new card's number and security code go to the card network once, for its
/// token (`CardTokenizer`), never to Skiff's server, and are never kept or logged.
struct CardWorker: CardWorking {
    private let api: APIClient
    private let tokenizer: CardTokenizer

    init(api: APIClient) {
        self.api = api
        tokenizer = CardTokenizer(api: api)
    }

    func cards() async throws(NetworkError) -> [Card] {
        try await api.send { try await $0.listCards() } success: { try $0.ok.body.json.map(Self.card) }
    }

    func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card {
        let token = try await tokenizer.token(for: card, idempotencyKey: idempotencyKey)
        return try await NetworkErrorMapping.naming(Self.newCardFields) { () async throws(NetworkError) in
            try await api.send { client in
                try await client.addCard(
                    headers: .init(idempotencyKey: idempotencyKey),
                    body: .json(.init(cardToken: token, holderName: card.holderName))
                )
            } success: { Self.card(try $0.created.body.json) }
        }
    }

    /// The add-card body's fields under `NewCard`'s names, where they differ: what the server says of the token is
    /// said of the number, the card's name for itself.
    static let newCardFields = ["cardToken": "number"]

    func requestActivation(cardID: String, last4: String) async throws(NetworkError) -> VerificationChallenge {
        try await api.send { client in
            try await client.startCardActivation(path: .init(id: cardID), body: .json(.init(last4: last4)))
        } success: {
            AuthWorker.challenge(try $0.accepted.body.json)
        }
    }

    func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card {
        try await api.send { client in
            try await client.activateCard(
                path: .init(id: cardID), body: .json(.init(last4: last4, verificationId: verificationId, code: code))
            )
        } success: { Self.card(try $0.ok.body.json) }
    }

    func setFrozen(_ frozen: Bool, cardID: String) async throws(NetworkError) -> Card {
        if frozen {
            return try await api.send { try await $0.freezeCard(path: .init(id: cardID)) } success: { Self.card(try $0.ok.body.json) }
        }
        return try await api.send { try await $0.unfreezeCard(path: .init(id: cardID)) } success: { Self.card(try $0.ok.body.json) }
    }

    func remove(cardID: String) async throws(NetworkError) {
        try await api.send { try await $0.deleteCard(path: .init(id: cardID)) } success: { _ = try $0.noContent }
    }

    static func card(_ c: Components.Schemas.Card) -> Card {
        Card(
            id: c.id,
            kind: c.kind == .issued ? .issued : .external,
            brand: CardBrand(rawValue: c.brand) ?? .unknown,
            last4: c.last4, expiryMonth: c.expiryMonth, expiryYear: c.expiryYear, holderName: c.holderName,
            status: c.status == .active ? .active : .inactive, frozen: c.frozen
        )
    }
}

/// Notifications over the generated client.
struct NotificationsWorker: NotificationsWorking {
    private let api: APIClient

    init(api: APIClient) {
        self.api = api
    }

    func notifications() async throws(NetworkError) -> [AppNotification] {
        try await api.send { try await $0.listNotifications() } success: {
            try $0.ok.body.json.map {
                AppNotification(id: $0.id, title: $0.title, body: $0.body, createdAt: $0.createdAt, read: $0.read)
            }
        }
    }

    func markRead(id: String) async throws(NetworkError) {
        try await api.send { try await $0.markNotificationRead(path: .init(id: id)) } success: { _ = try $0.noContent }
    }
}

/// Sending money over the generated client.
struct TransferWorker: TransferWorking {
    private let api: APIClient

    init(api: APIClient) {
        self.api = api
    }

    func findRecipient(phone: PhoneNumber) async throws(NetworkError) -> Recipient {
        try await api.send { client in
            try await client.findRecipient(query: .init(countryCode: "+" + phone.countryCode, phoneNumber: phone.nationalNumber))
        } success: { Self.recipient(try $0.ok.body.json) }
    }

    func stepUp(password: String, recipientID: String, amount: Money) async throws(NetworkError) -> StepUpProof {
        try await api.send { client in
            try await client.stepUp(body: .json(.init(password: password, recipientId: recipientID, amountMinor: amount.amountMinor)))
        } success: {
            StepUpProof(token: try $0.created.body.json.stepUpToken)
        }
    }

    func send(_ order: TransferOrder, idempotencyKey: String) async throws(NetworkError) -> SentTransfer {
        try await NetworkErrorMapping.naming(Self.transferFields) { () async throws(NetworkError) in
            try await api.send { client in
                try await client.sendTransfer(
                    headers: .init(idempotencyKey: idempotencyKey),
                    body: .json(.init(
                        recipientId: order.recipientID, amountMinor: order.amount.amountMinor, currency: order.amount.currency,
                        note: order.note, stepUpToken: order.stepUp?.token
                    ))
                )
            } success: { output in
                let created = try output.created
                let transfer = try created.body.json
                return SentTransfer(
                    id: transfer.id, reference: transfer.reference,
                    amount: Money(amountMinor: transfer.amountMinor, currency: transfer.currency), note: transfer.note,
                    recipient: Self.recipient(transfer.counterparty), createdAt: transfer.createdAt,
                    replayed: created.headers.idempotentReplayed != nil
                )
            }
        }
    }

    /// The transfer body's fields under `TransferOrder`'s names, where they differ: the amount, the recipient.
    static let transferFields = ["amountMinor": "amount", "recipientId": "recipient"]

    func topUp(_ order: TopUpOrder, idempotencyKey: String) async throws(NetworkError) -> TopUpProgress {
        let answer = try await NetworkErrorMapping.naming(Self.topUpFields) { () async throws(NetworkError) in
            try await api.send { client in
                try await client.createTopUp(
                    headers: .init(idempotencyKey: idempotencyKey),
                    body: .json(.init(cardId: order.card.id, amountMinor: order.amount.amountMinor, currency: order.amount.currency))
                )
            } success: { output in
                if case .accepted(let accepted) = output { return (try accepted.body.json, replayed: false) }
                let created = try output.created
                return (try created.body.json, replayed: created.headers.idempotentReplayed != nil)
            }
        }
        return try await progress(answer.0, replayed: answer.replayed)
    }

    /// The top-up body's fields under `TopUpOrder`'s names, where they differ: the card, the amount.
    static let topUpFields = ["cardId": "card", "amountMinor": "amount"]

    func topUpProgress(id: String) async throws(NetworkError) -> TopUpProgress {
        let topUp = try await api.send { try await $0.getTopUp(path: .init(id: id)) } success: { try $0.ok.body.json }
        return try await progress(topUp, replayed: false)
    }

    /// A top-up as the server gave it: added, waiting (its confirmation address made absolute: the simulated card
    /// network's is on Skiff's server), or declined.
    private func progress(_ topUp: Components.Schemas.TopUp, replayed: Bool) async throws(NetworkError) -> TopUpProgress {
        switch topUp.status {
        case .completed:
            return .added(Self.added(topUp, replayed: replayed))
        case .declined:
            throw .declined(reason: (topUp.declineReason.flatMap(CardDeclineReason.init(rawValue:)) ?? .generic).message)
        case .pending:
            var actionURL: URL?
            if let address = topUp.actionUrl { actionURL = try await api.resolve(address) }
            return .waiting(PendingTopUp(id: topUp.id, actionURL: actionURL))
        }
    }

    static func added(_ topUp: Components.Schemas.TopUp, replayed: Bool) -> AddedMoney {
        AddedMoney(
            id: topUp.id, reference: topUp.reference ?? topUp.id,
            amount: Money(amountMinor: topUp.amountMinor, currency: topUp.currency), cardName: topUp.cardName, replayed: replayed
        )
    }

    static func recipient(_ r: Components.Schemas.Recipient) -> Recipient {
        Recipient(id: r.recipientId, displayName: r.displayName, fullName: r.fullName)
    }
}

extension Transaction {
    /// A line of the contract's transactions (a page, or a live event's).
    init(api line: Components.Schemas.Transaction) {
        self.init(
            id: line.id, amount: Money(amountMinor: line.amountMinor, currency: line.currency), merchant: line.merchant,
            category: line.category, createdAt: line.createdAt,
            note: line.note.flatMap { $0.isEmpty ? nil : $0 }, reference: line.reference.flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}
