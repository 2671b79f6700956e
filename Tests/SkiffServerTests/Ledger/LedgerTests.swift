import Foundation
import Testing
@testable import SkiffServer

/// The ledger's rules without a store: what each procedure decides from the facts a store reads. The both-store suites
/// (`LedgerRepositoryTests`, `TopUpRepositoryTests`, the bank test) prove the stores make what is decided here.
@Suite("Ledger rules")
struct LedgerTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    private func order(_ amount: Int64 = 1_000, limit: Int64 = 50_000, stepUp: Bool = false, hash: String = "h") -> TransferOrder {
        TransferOrder(
            id: "t1", reference: "SKF-TEST0001", payerUserID: "a", payeeUserID: "b", amountMinor: amount, currency: "USD",
            note: "Lunch", at: now, idempotencyKey: "k", requestHash: hash, dailyLimitMinor: limit, dayStart: now,
            stepUp: stepUp ? StepUpUse(tokenHash: "s", sessionTokenHash: "session") : nil,
            payerLine: StatementLine(userID: "a", amountMinor: -amount, merchant: "Bea B.", category: "Transfer"),
            payeeLine: StatementLine(userID: "b", amountMinor: amount, merchant: "Ann A.", category: "Transfer"),
            notification: NotificationRecord(id: "n", userID: "b", title: "Received", body: "", createdAt: now, readAt: nil)
        )
    }

    private func facts(
        balance: Int64? = 10_000, payee: Bool = true, sent: Int64 = 0, stepUp: Bool = true, earlier: String? = nil
    ) -> Ledger.TransferFacts {
        Ledger.TransferFacts(
            earlier: earlier.map { Ledger.KeyedTransfer(transfer: made(), requestHash: $0) }, payerBalanceMinor: balance,
            payeeHasWallet: payee, sentTodayMinor: sent, stepUpUsable: stepUp
        )
    }

    private func made() -> TransferRecord {
        TransferRecord(
            id: "t0", reference: "SKF-EARLIER1", kind: .transfer, fromAccount: "wallet:a:USD", toAccount: "wallet:b:USD",
            payerUserID: "a", payeeUserID: "b", amountMinor: 1_000, currency: "USD", note: nil, createdAt: now
        )
    }

    @Test("A covered transfer moves the amount between the two wallets, with the key, the lines, the step-up and the notification")
    func moves() throws {
        let decision = Ledger.transfer(order(stepUp: true), facts())
        guard case .write(let movement, .made(let transfer)) = decision else { Issue.record("\(decision)"); return }
        #expect(transfer.fromAccount == "wallet:a:USD" && transfer.toAccount == "wallet:b:USD" && transfer.amountMinor == 1_000)
        #expect(movement.transfer == transfer && movement.payerIsWallet && movement.opens.isEmpty)
        #expect(movement.key?.idempotencyKey == "k" && movement.key?.requestHash == "h")
        #expect(movement.lines.map(\.amountMinor) == [-1_000, 1_000] && movement.notification?.userID == "b")
        #expect(movement.stepUp == StepUpUse(tokenHash: "s", sessionTokenHash: "session"))
    }

    @Test("Refusals come in one order: the key, the payee's wallet, the payer's, the day's limit, the step-up, the funds")
    func refusalOrder() {
        // Every fact wrong at once: each refusal is reached only when the ones before it are put right.
        #expect(Ledger.transfer(order(), facts(balance: nil, payee: false, sent: 60_000, stepUp: false, earlier: "h")).answer == .replayed(made()))
        #expect(Ledger.transfer(order(), facts(balance: nil, payee: false, sent: 60_000, stepUp: false, earlier: "other")).answer == .keyReused)
        #expect(Ledger.transfer(order(), facts(balance: nil, payee: false, sent: 60_000, stepUp: false)).answer == .payeeHasNoWallet)
        #expect(Ledger.transfer(order(), facts(balance: nil, sent: 60_000, stepUp: false)).answer == .insufficientFunds)
        #expect(Ledger.transfer(order(), facts(balance: 0, sent: 60_000, stepUp: false)).answer == .overDailyLimit(remainingMinor: 0))
        #expect(Ledger.transfer(order(), facts(balance: 0, stepUp: false)).answer == .stepUpInvalid)
        #expect(Ledger.transfer(order(), facts(balance: 999)).answer == .insufficientFunds)
        #expect(Ledger.transfer(order(), facts(balance: 1_000)).answer == nil)
    }

    @Test("The day's limit counts this transfer: up to the limit passes, a minor unit over is refused with what is left")
    func dailyLimit() {
        #expect(Ledger.transfer(order(1_000, limit: 5_000), facts(sent: 4_000)).answer == nil)
        #expect(Ledger.transfer(order(1_001, limit: 5_000), facts(sent: 4_000)).answer == .overDailyLimit(remainingMinor: 1_000))
        #expect(Ledger.transfer(order(1, limit: 5_000), facts(sent: 6_000)).answer == .overDailyLimit(remainingMinor: 0))
        #expect(Ledger.transfer(order(.max, limit: .max), facts(balance: .max, sent: 1)).answer == .overDailyLimit(remainingMinor: .max - 1))
    }

    @Test("A new wallet opens empty without an opening balance, and with one the opening account pays it")
    func openWallet() {
        let empty = Ledger.openWallet(userID: "u", currency: "USD", openingMinor: 0, at: now)
        #expect(empty.wallet.id == "wallet:u:USD" && empty.wallet.kind == .wallet && empty.movement == nil)
        let funded = Ledger.openWallet(userID: "u", currency: "USD", openingMinor: 2_500, at: now)
        let movement = funded.movement
        #expect(movement?.transfer.fromAccount == "system:opening:USD" && movement?.transfer.toAccount == "wallet:u:USD")
        #expect(movement?.transfer.kind == .opening && movement?.transfer.amountMinor == 2_500)
        #expect(movement?.opens.map(\.kind) == [.system] && movement?.payerIsWallet == false)
    }

    private func topUp(status: TopUpStatus = .completed, hash: String = "h") -> TopUpRecord {
        TopUpRecord(
            id: "p", userID: "u", cardID: "c", cardBrand: "visa", cardLast4: "4242", amountMinor: 5_000, currency: "USD",
            status: status, idempotencyKey: "k", requestHash: hash, createdAt: now
        )
    }

    private func completion() -> TopUpCompletion {
        TopUpCompletion(
            transferID: "t", reference: "SKF-TOPUP001", authorizationID: "auth", at: now,
            line: StatementLine(userID: "u", amountMinor: 5_000, merchant: "Visa •••• 4242", category: "Top-up"),
            notification: NotificationRecord(id: "n", userID: "u", title: "Added", body: "", createdAt: now, readAt: nil)
        )
    }

    @Test("A top-up: replayed or refused by its key, refused without a wallet, otherwise the card's account pays the wallet")
    func topUps() {
        let order = TopUpOrder(topUp: topUp(), completion: completion())
        #expect(Ledger.topUp(order, .init(earlier: topUp(), hasWallet: false)).answer == .replayed(topUp()))
        #expect(Ledger.topUp(order, .init(earlier: topUp(hash: "other"), hasWallet: true)).answer == .keyReused)
        #expect(Ledger.topUp(order, .init(earlier: nil, hasWallet: false)).answer == .noWallet)
        guard case .write(let written, .made) = Ledger.topUp(order, .init(earlier: nil, hasWallet: true)),
              let movement = written else { Issue.record("not written"); return }
        #expect(movement.transfer.fromAccount == "card:c:USD" && movement.transfer.toAccount == "wallet:u:USD")
        #expect(movement.opens.map(\.kind) == [.card] && !movement.payerIsWallet && movement.key == nil)
        // A top-up waiting for its code writes its row and moves nothing, whether or not a wallet was read.
        let pending = TopUpOrder(topUp: topUp(status: .pending), completion: nil)
        guard case .write(let none, .made) = Ledger.topUp(pending, .init(earlier: nil, hasWallet: false)) else {
            Issue.record("pending not written"); return
        }
        #expect(none == nil)
    }

    @Test("Completing a top-up moves the money once: a completed or declined one is answered as it stands")
    func completing() throws {
        #expect(try Ledger.complete(nil, completion(), hasWallet: true).answer == .some(nil))
        #expect(try Ledger.complete(topUp(status: .completed), completion(), hasWallet: true).answer == topUp(status: .completed))
        #expect(try Ledger.complete(topUp(status: .declined), completion(), hasWallet: true).answer == topUp(status: .declined))
        #expect(throws: NoWallet.self) { try Ledger.complete(topUp(status: .pending), completion(), hasWallet: false) }
        guard case .write(let movement, let done?) = try Ledger.complete(topUp(status: .pending), completion(), hasWallet: true) else {
            Issue.record("not completed"); return
        }
        #expect(done.status == .completed && done.transferID == "t" && done.authorizationID == "auth" && done.completedAt == now)
        #expect(movement.transfer.amountMinor == 5_000 && movement.lines.count == 1)
    }
}
