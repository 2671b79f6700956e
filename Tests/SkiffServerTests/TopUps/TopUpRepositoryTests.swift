import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

/// Top-ups on each store: a completed one moves money from the card's funding account to the wallet with balanced
/// postings in one transaction, a key makes one top-up however often it is sent, and a pending one completes once.
@Suite("Top-up repository")
struct TopUpRepositoryTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("A completed top-up credits the wallet from the card's funding account, with its statement line and notification", arguments: TestStore.allCases)
    func completes(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            try await openAccount(repositories, balance: 1_000)
            let outcome = try await repositories.topUps.create(completed(5_000, key: "k"))
            guard case .made(let made) = outcome else { Issue.record("not made: \(outcome)"); return }
            #expect(made.status == .completed)
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 6_000)
            let line = try await repositories.transactions.page(userID: "u", after: nil, query: nil, limit: 1).first
            #expect(line?.amountMinor == 5_000 && line?.merchant == "Visa •••• 4242" && line?.category == "Top-up")
            #expect(line?.transferID == made.transferID && line?.reference == made.reference)
            #expect(try await repositories.notifications.notifications(userID: "u", limit: 5).map(\.title).contains("Added"))
            let transfer = try #require(try await repositories.ledger.transfer(id: made.transferID ?? "", userID: "u"))
            #expect(transfer.kind == .topUp && transfer.fromAccount == LedgerAccountID.card(cardID: "card", currency: "USD"))
            #expect(transfer.payerUserID == nil && transfer.payeeUserID == "u" && transfer.amountMinor == 5_000)
            // A second top-up from the same card uses the same funding account.
            guard case .made = try await repositories.topUps.create(completed(700, key: "k2")) else { Issue.record("second"); return }
            #expect(try await repositories.topUps.topUp(id: made.id, userID: "u") == made)
            #expect(try await repositories.topUps.topUp(id: made.id, userID: "someone") == nil)
            #expect(try await repositories.topUps.topUp(userID: "u", idempotencyKey: "k") == made)
            try await expectInvariants(repositories.ledger)
        }
    }

    @Test("A key makes one top-up: the same request is answered again, another refused, concurrent ones write once", arguments: TestStore.allCases)
    func oncePerKey(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            try await openAccount(repositories, balance: 0)
            guard case .made(let made) = try await repositories.topUps.create(completed(100, key: "k")) else {
                Issue.record("not made"); return
            }
            #expect(try await repositories.topUps.create(completed(100, key: "k")) == .replayed(made))
            #expect(try await repositories.topUps.create(completed(101, key: "k", hash: "other")) == .keyReused)
            #expect(try await repositories.topUps.create(completed(100, key: "euro", currency: "EUR")) == .noWallet)
            let topUps = repositories.topUps
            let outcomes = try await withThrowingTaskGroup(of: TopUpOutcome.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await topUps.create(self.completed(250, key: "race")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let made250 = outcomes.filter { if case .made = $0 { true } else { false } }
            #expect(made250.count == 1)
            #expect(outcomes.allSatisfy { outcome in
                switch outcome {
                case .made, .replayed: true
                default: false
                }
            })
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 350)
            try await expectInvariants(repositories.ledger)
        }
    }

    @Test("A pending top-up moves nothing until completed, completes once however often, and a declined one never moves", arguments: TestStore.allCases)
    func pending(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let topUps = repositories.topUps
            try await openAccount(repositories, balance: 0)
            guard case .made(let pending) = try await topUps.create(TopUpOrder(topUp: record(30_000, key: "p"), completion: nil)) else {
                Issue.record("pending"); return
            }
            #expect(pending.status == .pending && pending.paymentID == nil && pending.cardFingerprint == "f-card")
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 0)
            let results = try await withThrowingTaskGroup(of: TopUpRecord?.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await topUps.complete(id: pending.id, userID: "u", self.completion(30_000)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0?.status == .completed })
            #expect(Set(results.compactMap { $0?.transferID }).count == 1)
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 30_000)
            // Declining a completed top-up changes nothing.
            #expect(try await topUps.decline(id: pending.id, userID: "u", reason: "card-declined", at: now)?.status == .completed)
            #expect(try await topUps.complete(id: pending.id, userID: "stranger", completion(30_000)) == nil)

            guard case .made(let second) = try await topUps.create(TopUpOrder(topUp: record(40_000, key: "q"), completion: nil)) else {
                Issue.record("second"); return
            }
            let declined = try await topUps.decline(id: second.id, userID: "u", reason: "insufficient-funds", at: now)
            #expect(declined?.status == .declined && declined?.declineReason == "insufficient-funds")
            #expect(try await topUps.complete(id: second.id, userID: "u", completion(40_000))?.status == .declined)
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 30_000)
            try await expectInvariants(repositories.ledger)
        }
    }

    @Test("A pending top-up keeps the first payment made for it, and where its holder confirms it until it is settled", arguments: TestStore.allCases)
    func payments(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let topUps = repositories.topUps
            try await openAccount(repositories, balance: 0)
            guard case .made(let pending) = try await topUps.create(TopUpOrder(topUp: record(2_000, key: "p"), completion: nil)) else {
                Issue.record("pending"); return
            }
            let kept = try await topUps.recordPayment(id: pending.id, userID: "u", paymentID: "pi_1", actionURL: nil)
            #expect(kept?.paymentID == "pi_1" && kept?.actionURL == nil && kept?.status == .pending)
            // A second payment made by another caller is not kept: the first stays, the one confirmed.
            let second = try await topUps.recordPayment(id: pending.id, userID: "u", paymentID: "pi_2", actionURL: "https://bank/3ds")
            #expect(second?.paymentID == "pi_1" && second?.actionURL == "https://bank/3ds")
            #expect(try await topUps.recordPayment(id: pending.id, userID: "stranger", paymentID: "pi_3", actionURL: nil) == nil)
            #expect(try await topUps.topUp(paymentID: "pi_1")?.id == pending.id)
            #expect(try await topUps.topUp(paymentID: "pi_2") == nil)
            // Completed, the place to confirm is gone and nothing more is kept.
            let done = try await topUps.complete(id: pending.id, userID: "u", completion(2_000))
            #expect(done?.status == .completed && done?.actionURL == nil && done?.paymentID == "pi_1")
            let after = try await topUps.recordPayment(id: pending.id, userID: "u", paymentID: "pi_4", actionURL: "https://bank/again")
            #expect(after?.paymentID == "pi_1" && after?.actionURL == nil && after?.status == .completed)
            #expect(try await repositories.ledger.walletBalance(userID: "u", currency: "USD") == 2_000)
        }
    }

    @Test("Totals count the top-ups not declined since a time: the user's, and the card's on every account", arguments: TestStore.allCases)
    func totals(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let topUps = repositories.topUps
            try await openAccount(repositories, balance: 0)
            try await openAccount(repositories, balance: 0, userID: "w", cardFingerprint: "f-other")
            func make(_ amount: Int64, key: String, userID: String = "u", fingerprint: String = "f-card", at date: Date) async throws -> TopUpRecord {
                var topUp = record(amount, key: key)
                topUp.userID = userID
                topUp.cardID = userID == "u" ? "card" : "card-\(userID)"
                topUp.cardFingerprint = fingerprint
                topUp.createdAt = date
                guard case .made(let made) = try await topUps.create(TopUpOrder(topUp: topUp, completion: nil)) else {
                    throw TestFailure("not made: \(key)")
                }
                return made
            }
            let since = now.addingTimeInterval(-86_400)
            _ = try await make(1_000, key: "old", at: since.addingTimeInterval(-1))
            _ = try await make(2_000, key: "edge", at: since)
            let completed = try await make(3_000, key: "done", at: now)
            _ = try await topUps.complete(id: completed.id, userID: "u", completion(3_000))
            let declined = try await make(50_000, key: "no", at: now)
            _ = try await topUps.decline(id: declined.id, userID: "u", reason: "card-declined", at: now)
            // The same card on another account counts for the card, not for this account.
            _ = try await make(400, key: "moved", userID: "w", fingerprint: "f-card", at: now)
            _ = try await make(70, key: "theirs", userID: "w", fingerprint: "f-other", at: now)

            #expect(try await topUps.totals(userID: "u", since: since) == TopUpTotals(count: 2, amountMinor: 5_000))
            #expect(try await topUps.totals(cardFingerprint: "f-card", since: since) == TopUpTotals(count: 3, amountMinor: 5_400))
            #expect(try await topUps.totals(userID: "w", since: since) == TopUpTotals(count: 2, amountMinor: 470))
            #expect(try await topUps.totals(cardFingerprint: "f-other", since: since) == TopUpTotals(count: 1, amountMinor: 70))
            #expect(try await topUps.totals(userID: "nobody", since: since) == TopUpTotals(count: 0, amountMinor: 0))
            #expect(try await topUps.totals(cardFingerprint: "f-card", since: now.addingTimeInterval(1)) == TopUpTotals(count: 0, amountMinor: 0))
        }
    }

    @Test("A network event is kept once: handled after it is recorded, and recording it again changes nothing", arguments: TestStore.allCases)
    func events(store: TestStore) async throws {
        try await store.withFresh { store in
            let topUps = store.repositories.topUps
            #expect(try await topUps.handledEvent(id: "evt_1") == false)
            try await topUps.recordEvent(id: "evt_1", at: now)
            try await topUps.recordEvent(id: "evt_1", at: now.addingTimeInterval(5))
            #expect(try await topUps.handledEvent(id: "evt_1"))
            #expect(try await topUps.handledEvent(id: "evt_2") == false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { try await topUps.recordEvent(id: "evt_3", at: self.now) } }
                try await group.waitForAll()
            }
            #expect(try await topUps.handledEvent(id: "evt_3"))
        }
    }

    // MARK: Fixtures

    private func expectInvariants(_ ledger: any LedgerRepository, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(
            try await ledger.totals() == LedgerTotals(balanceSum: 0, accountsOffPostings: 0, unbalancedTransfers: 0, negativeWallets: 0),
            sourceLocation: sourceLocation
        )
    }

    /// Opens user `userID` ("u") with `balance` paid in and an added Visa ("card" for "u", else "card-<userID>").
    private func openAccount(
        _ repositories: Repositories, balance: Int64, userID: String = "u", cardFingerprint: String = "f-card"
    ) async throws {
        let number = userID == "u" ? "2025550100" : "2025550199"
        try await repositories.accounts.create(NewAccount(
            user: UserRecord(
                id: userID, phone: "+1" + number, countryCode: "1", nationalNumber: number, fullName: "Sam Carter",
                passwordHash: "hash", balanceMinor: balance, currency: "USD", createdAt: now
            ),
            issuedCard: CardRecord(
                id: "issued-\(userID)", userID: userID, kind: .issued, brand: "visa", last4: "1111", expiryMonth: 12,
                expiryYear: 2030, holderName: "Sam Carter", status: .inactive, fingerprint: "issued-\(userID)", createdAt: now
            ),
            openingTransaction: NewTransaction(
                amountMinor: balance, currency: "USD", merchant: "Skiff", category: "Opening balance", createdAt: now
            ),
            welcome: NotificationRecord(id: "welcome-\(userID)", userID: userID, title: "Welcome", body: "", createdAt: now, readAt: nil)
        ))
        try await repositories.cards.insert(CardRecord(
            id: userID == "u" ? "card" : "card-\(userID)", userID: userID, kind: .external, brand: "visa", last4: "4242",
            expiryMonth: 12, expiryYear: 2031, holderName: "Sam Carter", status: .active, fingerprint: cardFingerprint,
            createdAt: now, networkCardID: "card_sim_x"
        ), announcing: nil)
    }

    private func record(_ amount: Int64, key: String, hash: String? = nil, currency: String = "USD") -> TopUpRecord {
        TopUpRecord(
            id: UUID().uuidString.lowercased(), userID: "u", cardID: "card", cardBrand: "visa", cardLast4: "4242",
            amountMinor: amount, currency: currency, status: .pending, cardFingerprint: "f-card", idempotencyKey: key,
            requestHash: hash ?? "\(amount)-\(key)", createdAt: now
        )
    }

    private func completion(_ amount: Int64) -> TopUpCompletion {
        TopUpCompletion(
            transferID: UUID().uuidString.lowercased(), reference: TransferReference.make(), authorizationID: "auth", at: now,
            line: StatementLine(userID: "u", amountMinor: amount, merchant: "Visa •••• 4242", category: "Top-up"),
            notification: NotificationRecord(
                id: UUID().uuidString.lowercased(), userID: "u", title: "Added", body: "", createdAt: now, readAt: nil
            )
        )
    }

    /// A top-up approved at once: its record, completed, and its completion.
    private func completed(_ amount: Int64, key: String, hash: String? = nil, currency: String = "USD") -> TopUpOrder {
        var topUp = record(amount, key: key, hash: hash, currency: currency)
        let completion = completion(amount)
        topUp.status = .completed
        topUp.transferID = completion.transferID
        topUp.reference = completion.reference
        topUp.authorizationID = completion.authorizationID
        topUp.completedAt = now
        return TopUpOrder(topUp: topUp, completion: completion)
    }
}
