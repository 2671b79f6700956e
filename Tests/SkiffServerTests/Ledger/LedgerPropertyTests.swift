import Foundation
import PropertyBased
import SkiffAPI
import SkiffCore
import Testing
@testable import SkiffServer

/// The ledger's rules as properties: any generated sequence of transfers, replays, reused keys and refusals, sent
/// through `TransferService` to the real repository of each store, answers what a model of the rules says at every
/// step and leaves every invariant holding (`totals()` clean, each wallet the model's and never below zero, each
/// key at most one transfer, one statement line per transfer on each side).
///
/// Top-ups are not generated yet: when `POST /v1/topups` lands, a `LedgerStep.Action` for it and its rule in
/// `LedgerModel.expect` join here, and the same checks cover it.
@Suite("Ledger properties")
struct LedgerPropertyTests {
    @Test("Any sequence of transfers and refusals keeps every invariant (SQLite)")
    func sqlite() async throws {
        try await check(.sqlite, sequences: 60)
    }

    @Test("Any sequence of transfers and refusals keeps every invariant (PostgreSQL)")
    func postgres() async throws {
        try await check(.postgres, sequences: 25)
    }

    /// Runs `sequences` generated sequences on one fresh store, each among three new users.
    private func check(_ kind: TestStore, sequences: Int) async throws {
        try await kind.withFresh { store in
            let clock = TestClock()
            var limits = SkiffServerLimits()
            limits.dailyTransferLimitMinor = LedgerModel.dailyLimit
            let service = TransferService(
                accounts: store.repositories.accounts, ledger: store.repositories.ledger,
                rateWindows: store.repositories.rateWindows, clock: clock, limits: limits, logger: TestStore.logger
            )
            await propertyCheck(count: sequences, input: LedgerStep.generator.array(of: 1...40)) { steps in
                try await run(steps, store: store, service: service, clock: clock, limits: limits)
            }
        }
    }

    private func run(
        _ steps: [LedgerStep], store: any RepositoryStore, service: TransferService, clock: TestClock,
        limits: SkiffServerLimits
    ) async throws {
        let repositories = store.repositories
        let users = (0..<LedgerModel.users).map { _ in "p-" + UUID().uuidString.lowercased() }
        for user in users { try await open(user, repositories) }
        var model = LedgerModel(users: users, limits: limits)
        for (index, step) in steps.enumerated() {
            let payer = users[step.payer]
            let payee = users[(step.payer + step.payeeOffset) % users.count]
            let token = try await stepUpToken(
                step.stepUp, payer: payer, for: StepUpTarget(payeeUserID: payee, amountMinor: step.amount), model: &model, repositories,
                clock: clock
            )
            let expected = model.expect(step, token: token)
            let actual: LedgerModel.Outcome
            do {
                let sent = try await service.send(
                    .init(recipientID: payee, amountMinor: step.amount, currency: "USD", note: nil, stepUpToken: token),
                    callerID: payer, sessionTokenHash: LedgerModel.session(payer), idempotencyKey: IdempotencyKey(
                        value: step.key, requestHash: step.requestHash(payee: payee), strategy: .ledger
                    )
                )
                actual = sent.replayed ? .replayed(sent.transfer.id) : .made(sent.transfer.id)
            } catch let problem as Problem {
                actual = .refused(problem.kind)
            }
            // A made transfer's id is the server's: the model learns it, then compares.
            if case .made(let id) = actual, case .made = expected {
                model.record(step, payee: payee, token: token, id: id)
            } else {
                #expect(actual == expected, "step \(index) \(step): \(actual), the model says \(expected)")
                if actual != expected { return }
            }
        }
        try await expectInvariants(model, repositories)
    }

    /// The token the step sends: none, a fresh proof of the payer's session (for this step's payee and amount), one
    /// already used (or never made), or a fresh proof of another session.
    private func stepUpToken(
        _ kind: LedgerStep.StepUp, payer: String, for transfer: StepUpTarget, model: inout LedgerModel,
        _ repositories: Repositories, clock: TestClock
    ) async throws -> String? {
        switch kind {
        case .none:
            return nil
        case .spent:
            return model.spentTokens[payer]?.last ?? "never-made"
        case .fresh, .otherSession:
            let token = UUID().uuidString
            let session = kind == .fresh ? LedgerModel.session(payer) : "another-session"
            try await repositories.ledger.createStepUp(StepUpRecord(
                tokenHash: SessionToken.hash(token), sessionTokenHash: session, userID: payer,
                payeeUserID: transfer.payeeUserID, amountMinor: transfer.amountMinor, createdAt: clock.now(),
                expiresAt: clock.now().addingTimeInterval(300)
            ))
            if kind == .fresh { model.freshTokens.insert(token) }
            return token
        }
    }

    private func expectInvariants(_ model: LedgerModel, _ repositories: Repositories) async throws {
        #expect(try await repositories.ledger.totals() == LedgerTotals(
            balanceSum: 0, accountsOffPostings: 0, unbalancedTransfers: 0, negativeWallets: 0
        ))
        for user in model.users {
            let balance = try await repositories.ledger.walletBalance(userID: user, currency: "USD")
            #expect(balance == model.balances[user], "\(user)")
            #expect((balance ?? -1) >= 0)
            #expect(try await repositories.accounts.user(id: user)?.balanceMinor == model.balances[user])
            // One statement line per transfer the user sent or received, and none for anything refused.
            let lines = try await repositories.transactions.page(userID: user, after: nil, query: nil, limit: 200)
                .filter { $0.category == StatementLine.transferCategory }
            let expected = model.transfers.filter { $0.payer == user || $0.payee == user }.map(\.id)
            #expect(lines.compactMap(\.transferID).sorted() == expected.sorted())
        }
        // Each key made at most one transfer: the transfers are as many as the keys that made one, and each is there.
        #expect(Set(model.transfers.map(\.id)).count == model.transfers.count)
        #expect(Set(model.keys.values.map(\.id)) == Set(model.transfers.map(\.id)))
        for transfer in model.transfers {
            let stored = try await repositories.ledger.transfer(id: transfer.id, userID: transfer.payer)
            #expect(stored?.amountMinor == transfer.amount && stored?.payeeUserID == transfer.payee)
        }
    }

    private func open(_ id: String, _ repositories: Repositories) async throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let phone = "+1" + String(UInt64.random(in: 2_000_000_000...9_999_999_999))
        try await repositories.accounts.create(NewAccount(
            user: UserRecord(
                id: id, phone: phone, countryCode: "1", nationalNumber: String(phone.dropFirst(2)),
                fullName: "Pat Property", passwordHash: "hash", balanceMinor: LedgerModel.opening, currency: "USD",
                createdAt: now
            ),
            issuedCard: CardRecord(
                id: "issued-\(id)", userID: id, kind: .issued, brand: "visa", last4: "4242", expiryMonth: 12,
                expiryYear: 2030, holderName: "Pat Property", status: .inactive, fingerprint: "issued-\(id)",
                createdAt: now
            ),
            openingTransaction: NewTransaction(
                amountMinor: LedgerModel.opening, currency: "USD", merchant: "Skiff", category: "Opening balance",
                createdAt: now
            ),
            welcome: NotificationRecord(id: "welcome-\(id)", userID: id, title: "Welcome", body: "", createdAt: now, readAt: nil)
        ))
    }
}

/// One request of a generated sequence: who pays whom, how much, under which of the payer's few keys (so keys come
/// back, with the same request or another), and with what step-up proof.
struct LedgerStep: Sendable, CustomStringConvertible {
    enum StepUp: Int, Sendable, CaseIterable {
        case none, fresh, spent, otherSession
    }

    /// The payer, of `LedgerModel.users`.
    var payer: Int
    /// The payee is the user this many places after the payer: 0 is the payer.
    var payeeOffset: Int
    var amount: Int64
    /// Which of the payer's `LedgerModel.keysPerUser` keys.
    var keySlot: Int
    var stepUp: StepUp

    var key: String { "key-\(keySlot)" }

    /// What the server hashes of a request: its body (payee, amount; the proof is not part of what is asked).
    func requestHash(payee: String) -> String { "\(payee):\(amount)" }

    var description: String { "\(payer)→+\(payeeOffset) \(amount) \(key) \(stepUp)" }

    /// Amounts of every kind: not positive, small, needing a step-up, over the balance, over the per-transfer limit.
    static let amount = Gen.frequency(
        (weight: 1, gen: Gen.int64(in: -3...0)),
        (weight: 8, gen: Gen.int64(in: 1...6_000)),
        (weight: 3, gen: Gen.int64(in: 6_001...TransferRules.stepUpAboveMinor + 15_000)),
        (weight: 1, gen: Gen.int64(in: 150_000...250_000))
    )

    static let generator = zip(
        Gen.int(in: 0...(LedgerModel.users - 1)), Gen.int(in: 0...(LedgerModel.users - 1)), amount,
        Gen.int(in: 0...(LedgerModel.keysPerUser * StepUp.allCases.count - 1))
    ).map { payer, offset, amount, choice in
        LedgerStep(
            payer: payer, payeeOffset: offset, amount: amount, keySlot: choice % LedgerModel.keysPerUser,
            stepUp: StepUp(rawValue: choice / LedgerModel.keysPerUser) ?? .none
        )
    }
}

/// The rules, as plain Swift: what each request must answer, and the balances the answers leave.
struct LedgerModel {
    static let users = 3
    static let keysPerUser = 4
    static let opening: Int64 = 30_000
    /// Low, so that sequences reach it.
    static let dailyLimit: Int64 = 60_000

    static func session(_ user: String) -> String { "session-of-\(user)" }

    enum Outcome: Equatable {
        case made(String)
        case replayed(String)
        case refused(ProblemType)
    }

    struct Transfer {
        var id: String
        var payer: String
        var payee: String
        var amount: Int64
    }

    let users: [String]
    let limits: SkiffServerLimits
    var balances: [String: Int64]
    var sentToday: [String: Int64] = [:]
    /// (payer, key) → the request hash and the transfer it made.
    var keys: [String: (hash: String, id: String)] = [:]
    var transfers: [Transfer] = []
    /// Proofs made for their payer's session and not used yet.
    var freshTokens: Set<String> = []
    /// Proofs a transfer used, per payer.
    var spentTokens: [String: [String]] = [:]

    init(users: [String], limits: SkiffServerLimits) {
        self.users = users
        self.limits = limits
        balances = Dictionary(uniqueKeysWithValues: users.map { ($0, Self.opening) })
    }

    /// What `step` must answer, in the order the service and the repository check: the request itself, the
    /// per-transfer limit, a missing proof (for this amount), the key, the day's limit, the proof sent (any proof sent
    /// is used, and must be fresh: a fresh one is made for this step's payee and amount), a missing proof (for the
    /// day's total past the step-up amount), the balance. `.made("")` when it makes a transfer (the server names it).
    func expect(_ step: LedgerStep, token: String?) -> Outcome {
        let payer = users[step.payer]
        let payee = users[(step.payer + step.payeeOffset) % users.count]
        if step.amount <= 0 || payer == payee { return .refused(.validation) }
        if step.amount > limits.transferMaxMinor { return .refused(.transferLimit) }
        let needsStepUp = TransferRules.needsStepUp(amountMinor: step.amount)
        if needsStepUp && token == nil { return .refused(.stepUpRequired) }
        if let earlier = keys[payer + " " + step.key] {
            return earlier.hash == step.requestHash(payee: payee) ? .replayed(earlier.id) : .refused(.idempotencyKeyReused)
        }
        if (sentToday[payer] ?? 0) + step.amount > limits.dailyTransferLimitMinor { return .refused(.transferLimit) }
        if let token, !freshTokens.contains(token) { return .refused(.stepUpRequired) }
        if token == nil, TransferRules.needsStepUp(amountMinor: step.amount, sentTodayMinor: sentToday[payer] ?? 0) {
            return .refused(.stepUpRequired)
        }
        if (balances[payer] ?? 0) < step.amount { return .refused(.insufficientFunds) }
        return .made("")
    }

    /// Records the transfer `step` made as `id`.
    mutating func record(_ step: LedgerStep, payee: String, token: String?, id: String) {
        let payer = users[step.payer]
        balances[payer, default: 0] -= step.amount
        balances[payee, default: 0] += step.amount
        sentToday[payer, default: 0] += step.amount
        keys[payer + " " + step.key] = (step.requestHash(payee: payee), id)
        transfers.append(Transfer(id: id, payer: payer, payee: payee, amount: step.amount))
        if let token {
            freshTokens.remove(token)
            spentTokens[payer, default: []].append(token)
        }
    }
}
