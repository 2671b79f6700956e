import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

/// The ledger's repository on each store: transfers move balances with balanced postings in one transaction, a
/// refusal writes nothing, a key makes at most one transfer, and concurrent transfers keep every invariant.
@Suite("Ledger")
struct LedgerRepositoryTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("A transfer moves both balances, writes two balanced postings, both statement lines and the payee's notification", arguments: TestStore.allCases)
    func transferMoves(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            try await openAccount(store.repositories, "a", balance: 10_000)
            try await openAccount(store.repositories, "b", balance: 500)
            let outcome = try await ledger.transfer(order("a", "b", 1_250, key: "k1", note: "Lunch"))
            guard case .made(let made) = outcome else { Issue.record("not made: \(outcome)"); return }
            #expect(made.amountMinor == 1_250 && made.payerUserID == "a" && made.payeeUserID == "b" && made.note == "Lunch")
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 8_750)
            #expect(try await ledger.walletBalance(userID: "b", currency: "USD") == 1_750)
            #expect(try await store.repositories.accounts.user(id: "b")?.balanceMinor == 1_750)
            let payerLines = try await store.repositories.transactions.page(userID: "a", after: nil, query: nil, limit: 1)
            #expect(payerLines.first?.amountMinor == -1_250 && payerLines.first?.transferID == made.id)
            #expect(payerLines.first?.merchant == "Bea B." && payerLines.first?.note == "Lunch")
            #expect(payerLines.first?.reference == made.reference)
            let payeeLines = try await store.repositories.transactions.page(userID: "b", after: nil, query: nil, limit: 1)
            #expect(payeeLines.first?.amountMinor == 1_250 && payeeLines.first?.merchant == "Ann A.")
            #expect(try await store.repositories.notifications.notifications(userID: "b", limit: 5).map(\.title).contains("to b"))
            #expect(try await ledger.transfer(id: made.id, userID: "a") == made)
            #expect(try await ledger.transfer(id: made.id, userID: "b") == made)
            #expect(try await ledger.transfer(id: made.id, userID: "stranger") == nil)
            try await expectInvariants(ledger)
        }
    }

    @Test("The same key and request answers the same transfer; the key with another request is refused; nothing doubles", arguments: TestStore.allCases)
    func idempotency(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            try await openAccount(store.repositories, "a", balance: 10_000)
            try await openAccount(store.repositories, "b", balance: 0)
            guard case .made(let made) = try await ledger.transfer(order("a", "b", 100, key: "k")) else {
                Issue.record("not made"); return
            }
            #expect(try await ledger.transfer(order("a", "b", 100, key: "k")) == .replayed(made))
            #expect(try await ledger.transfer(order("a", "b", 101, key: "k", hash: "other")) == .keyReused)
            // Another payer's same key is theirs.
            guard case .made = try await ledger.transfer(order("b", "a", 50, key: "k")) else { Issue.record("b's key"); return }
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 9_950)
            try await expectInvariants(ledger)
        }
    }

    @Test("A reference already taken (40 random bits meeting) fails the new transfer and writes nothing; it is never a reused key", arguments: TestStore.allCases)
    func referenceClash(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            try await openAccount(store.repositories, "a", balance: 10_000)
            try await openAccount(store.repositories, "b", balance: 0)
            let first = order("a", "b", 100, key: "k1")
            guard case .made = try await ledger.transfer(first) else { Issue.record("not made"); return }
            var clash = order("a", "b", 200, key: "k2")
            clash.reference = first.reference
            await #expect(throws: (any Error).self) { try await ledger.transfer(clash) }
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 9_900)
            // The same request again, with a new reference as the service draws one, is made.
            clash.reference = TransferReference.make()
            guard case .made = try await ledger.transfer(clash) else { Issue.record("the retry was not made"); return }
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 9_700)
            try await expectInvariants(ledger)
        }
    }

    @Test("Refusals write nothing: over the balance, over the day's limit, a bad step-up, a payee without a wallet", arguments: TestStore.allCases)
    func refusals(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            try await openAccount(store.repositories, "a", balance: 9_000)
            try await openAccount(store.repositories, "b", balance: 0)
            // Within the day's step-up amount ($100.00), so no proof is asked: over the balance.
            #expect(try await ledger.transfer(order("a", "b", 9_001, key: "1")) == .insufficientFunds)
            // Past it, a proof is asked before the balance is looked at.
            #expect(try await ledger.transfer(order("a", "b", 10_001, key: "1b")) == .stepUpInvalid)
            guard case .made = try await ledger.transfer(order("a", "b", 3_000, key: "2", dailyLimit: 5_000)) else {
                Issue.record("within the limit"); return
            }
            #expect(try await ledger.transfer(order("a", "b", 2_001, key: "3", dailyLimit: 5_000)) == .overDailyLimit(remainingMinor: 2_000))
            // Yesterday's transfers do not count against today.
            var tomorrow = order("a", "b", 2_001, key: "4", dailyLimit: 5_000)
            tomorrow.at = now.addingTimeInterval(86_400)
            tomorrow.dayStart = now.addingTimeInterval(86_400)
            guard case .made = try await ledger.transfer(tomorrow) else { Issue.record("tomorrow"); return }
            var unknownStepUp = order("a", "b", 100, key: "5")
            unknownStepUp.stepUp = StepUpUse(tokenHash: "nope", sessionTokenHash: "s")
            #expect(try await ledger.transfer(unknownStepUp) == .stepUpInvalid)
            #expect(try await ledger.transfer(order("a", "b", 100, key: "6", currency: "EUR")) == .payeeHasNoWallet)
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 9_000 - 3_000 - 2_001)
            #expect(try await store.repositories.transactions.page(userID: "b", after: nil, query: nil, limit: 10).count == 3)
            try await expectInvariants(ledger)
        }
    }

    @Test("A step-up proof is good once, for its own session, until it expires", arguments: TestStore.allCases)
    func stepUp(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            try await openAccount(store.repositories, "a", balance: 100_000)
            try await openAccount(store.repositories, "b", balance: 0)
            for (token, amount) in [("t1", Int64(20_000)), ("t2", 20_000), ("t3", 70_000)] {
                try await ledger.createStepUp(StepUpRecord(
                    tokenHash: token, sessionTokenHash: "s1", userID: "a", payeeUserID: "b", amountMinor: amount, createdAt: now,
                    expiresAt: now.addingTimeInterval(300)
                ))
            }
            var otherSession = order("a", "b", 20_000, key: "1")
            otherSession.stepUp = StepUpUse(tokenHash: "t1", sessionTokenHash: "s2")
            #expect(try await ledger.transfer(otherSession) == .stepUpInvalid)
            var good = order("a", "b", 20_000, key: "2")
            good.stepUp = StepUpUse(tokenHash: "t1", sessionTokenHash: "s1")
            guard case .made = try await ledger.transfer(good) else { Issue.record("good"); return }
            var again = order("a", "b", 20_000, key: "3")
            again.stepUp = StepUpUse(tokenHash: "t1", sessionTokenHash: "s1")
            #expect(try await ledger.transfer(again) == .stepUpInvalid)
            var late = order("a", "b", 20_000, key: "4")
            late.stepUp = StepUpUse(tokenHash: "t2", sessionTokenHash: "s1")
            late.at = now.addingTimeInterval(301)
            #expect(try await ledger.transfer(late) == .stepUpInvalid)
            // A proof is for its payee and amount only.
            var otherAmount = order("a", "b", 20_001, key: "5a")
            otherAmount.stepUp = StepUpUse(tokenHash: "t2", sessionTokenHash: "s1")
            #expect(try await ledger.transfer(otherAmount) == .stepUpInvalid)
            // A transfer refused after its proof was checked (the funds) leaves the proof unused: a's 80,000 less
            // 70,000 leaves 10,000, short of 20,000 until b sends 10,000 back.
            var drain = order("a", "b", 70_000, key: "5b")
            drain.stepUp = StepUpUse(tokenHash: "t3", sessionTokenHash: "s1")
            guard case .made = try await ledger.transfer(drain) else { Issue.record("drain"); return }
            var refused = order("a", "b", 20_000, key: "5")
            refused.stepUp = StepUpUse(tokenHash: "t2", sessionTokenHash: "s1")
            #expect(try await ledger.transfer(refused) == .insufficientFunds)
            guard case .made = try await ledger.transfer(order("b", "a", 10_000, key: "back")) else { Issue.record("back"); return }
            var later = order("a", "b", 20_000, key: "6")
            later.stepUp = StepUpUse(tokenHash: "t2", sessionTokenHash: "s1")
            guard case .made = try await ledger.transfer(later) else { Issue.record("t2 unused"); return }
            #expect(try await ledger.walletBalance(userID: "a", currency: "USD") == 0)
        }
    }

    @Test("Concurrent transfers both ways between the same wallets, and to one hot payee, never deadlock, double or go below zero", arguments: TestStore.allCases)
    func concurrent(store: TestStore) async throws {
        try await store.withFresh { store in
            let ledger = store.repositories.ledger
            let users = ["a", "b", "c", "d"]
            for user in users { try await openAccount(store.repositories, user, balance: 1_000) }
            let outcomes = try await withThrowingTaskGroup(of: TransferOutcome.self) { group in
                for index in 0..<200 {
                    // Half A⇄B both ways, half everyone to D; every fifth one sent twice with its key.
                    let (from, to) = index % 2 == 0
                        ? (index % 4 == 0 ? ("a", "b") : ("b", "a"))
                        : (users[index % 3], "d")
                    let key = "key-\(index)"
                    group.addTask { try await ledger.transfer(self.order(from, to, Int64(7 + index % 90), key: key)) }
                    if index % 5 == 0 {
                        group.addTask { try await ledger.transfer(self.order(from, to, Int64(7 + index % 90), key: key)) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let made = outcomes.compactMap { outcome -> TransferRecord? in
                if case .made(let record) = outcome { return record } else { return nil }
            }
            let replayed = outcomes.compactMap { outcome -> TransferRecord? in
                if case .replayed(let record) = outcome { return record } else { return nil }
            }
            #expect(outcomes.count == 240)
            #expect(Set(made.map(\.id)).count == made.count)
            #expect(replayed.allSatisfy { record in made.contains(record) })
            #expect(outcomes.allSatisfy { outcome in
                switch outcome {
                case .made, .replayed, .insufficientFunds: true
                default: false
                }
            })
            var total: Int64 = 0
            for user in users { total += try await ledger.walletBalance(userID: user, currency: "USD") ?? -1 }
            #expect(total == 4_000)
            try await expectInvariants(ledger)
        }
    }

    // MARK: Fixtures

    private func expectInvariants(_ ledger: any LedgerRepository, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(
            try await ledger.totals() == LedgerTotals(balanceSum: 0, accountsOffPostings: 0, unbalancedTransfers: 0, negativeWallets: 0),
            sourceLocation: sourceLocation
        )
    }

    /// Opens user `id` ("a" is Ann Archer, "b" Bea Baker …) with `balance` paid in.
    func openAccount(_ repositories: Repositories, _ id: String, balance: Int64) async throws {
        let name = Self.names[id] ?? "Sam Carter"
        try await repositories.accounts.create(NewAccount(
            user: UserRecord(
                id: id, phone: "+1202555\(String(format: "%04d", Int(id.unicodeScalars.first!.value)))", countryCode: "1",
                nationalNumber: "202555", fullName: name, passwordHash: "hash", balanceMinor: balance, currency: "USD",
                createdAt: now
            ),
            issuedCard: CardRecord(
                id: "issued-\(id)", userID: id, kind: .issued, brand: "visa", last4: "4242", expiryMonth: 12,
                expiryYear: 2030, holderName: name, status: .inactive, fingerprint: "issued-\(id)", createdAt: now
            ),
            openingTransaction: NewTransaction(
                amountMinor: balance, currency: "USD", merchant: "Skiff", category: "Opening balance", createdAt: now
            ),
            welcome: NotificationRecord(id: "welcome-\(id)", userID: id, title: "Welcome", body: "", createdAt: now, readAt: nil)
        ))
    }

    private static let names = ["a": "Ann Archer", "b": "Bea Baker", "c": "Cy Cole", "d": "Dee Dunn"]

    func order(
        _ from: String, _ to: String, _ amount: Int64, key: String, hash: String? = nil, note: String? = nil,
        currency: String = "USD", dailyLimit: Int64 = 500_000
    ) -> TransferOrder {
        let id = UUID().uuidString.lowercased()
        return TransferOrder(
            id: id, reference: TransferReference.make(), payerUserID: from, payeeUserID: to, amountMinor: amount,
            currency: currency, note: note, at: now, idempotencyKey: key,
            requestHash: hash ?? "\(from)-\(to)-\(amount)-\(key)", dailyLimitMinor: dailyLimit,
            dayStart: TransferService.startOfUTCDay(now), stepUp: nil,
            payerLine: StatementLine(userID: from, amountMinor: -amount, merchant: ShortName.of(Self.names[to] ?? ""), category: "Transfer"),
            payeeLine: StatementLine(userID: to, amountMinor: amount, merchant: ShortName.of(Self.names[from] ?? ""), category: "Transfer"),
            notification: NotificationRecord(id: "n-\(id)", userID: to, title: "to \(to)", body: "", createdAt: now, readAt: nil)
        )
    }
}
