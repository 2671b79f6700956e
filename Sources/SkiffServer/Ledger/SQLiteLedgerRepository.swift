import Foundation
import GRDB

/// The ledger on SQLite. Every write is in a `BEGIN IMMEDIATE` transaction: SQLite has one writer at a time, so a
/// transfer holds the write lock from its first read to its commit and no two transfers interleave. Transfers are
/// committed in groups (`SQLiteGroupCommit`).
struct SQLiteLedgerRepository: LedgerRepository {
    let pool: MeteredPool
    let transfers: TransferCommit

    /// The group commit `transfer(_:)` goes through: a batch's statement lines are written together at its end.
    typealias TransferCommit = SQLiteGroupCommit<TransferOrder, TransferOutcome, StatementLines>

    static func transferCommit(_ pool: MeteredPool) -> TransferCommit {
        TransferCommit(pool: pool) { order, lines, db in try transfer(order, &lines, db) }
    }

    /// The tables (migration `ledger`). Postings and transfers are never updated or deleted: triggers refuse it.
    static let schema = (LedgerSchema.statements(postingID: "id INTEGER PRIMARY KEY") + [
        "CREATE TRIGGER postings_never_updated BEFORE UPDATE ON postings BEGIN SELECT RAISE(ABORT, 'postings are never updated'); END",
        "CREATE TRIGGER postings_never_deleted BEFORE DELETE ON postings BEGIN SELECT RAISE(ABORT, 'postings are never deleted'); END",
        "CREATE TRIGGER transfers_never_updated BEFORE UPDATE ON transfers BEGIN SELECT RAISE(ABORT, 'transfers are never updated'); END",
        "CREATE TRIGGER transfers_never_deleted BEFORE DELETE ON transfers BEGIN SELECT RAISE(ABORT, 'transfers are never deleted'); END",
    ]).joined(separator: ";\n")

    func walletBalance(userID: String, currency: String) async throws -> Int64? {
        try await pool.unsafeRead { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT balance_minor FROM ledger_accounts WHERE id = ?"),
                arguments: [LedgerAccountID.wallet(userID: userID, currency: currency)]
            )
        }
    }

    func transfer(_ order: TransferOrder) async throws -> TransferOutcome {
        try await transfers.run(order)
    }

    /// `Ledger.transfer` in the group commit's open transaction: a refusal writes nothing (what `SQLiteGroupCommit`
    /// asks of a step), so it needs no savepoint of its own. Its statement lines are left in `lines`, for the batch's end.
    private static func transfer(
        _ order: TransferOrder, _ lines: inout StatementLines, _ db: Database
    ) throws -> TransferOutcome {
        let work = SQLiteUnitOfWork(db: db)
        switch Ledger.transfer(order, try work.transferFacts(order)) {
        case .answer(let outcome):
            return outcome
        case .write(let movement, let outcome):
            try work.make(movement, deferringLinesTo: &lines)
            return outcome
        }
    }

    /// One write transaction; the lines go in chunks, each chunk three inserts (its transfers, their postings, their
    /// statement lines) of many rows, as `StatementLines` writes a batch's lines; the balances move once at the end.
    func record(_ history: GeneratedHistory) async throws -> Int64 {
        try await pool.write { db in
            let work = SQLiteUnitOfWork(db: db)
            let wallet = LedgerAccountID.wallet(userID: history.userID, currency: history.currency)
            var balance = try Ledger.historyStart(history, walletBalanceMinor: work.balance(wallet))
            let start = balance
            for chunk in stride(from: 0, to: history.count, by: StatementLines.linesAStatement) {
                var transfers = StatementArguments(), postings = StatementArguments(), lines = StatementArguments()
                let indexes = chunk..<min(chunk + StatementLines.linesAStatement, history.count)
                for index in indexes {
                    let (transfer, line, after) = try history.entry(index, balanceMinor: balance)
                    let at = transfer.createdAt.millisecondsSince1970
                    if index == 0 { try work.open(Ledger.generatedWorld(history, at: transfer.createdAt), ifAbsent: true) }
                    transfers += [
                        transfer.id, transfer.reference, transfer.kind.rawValue, transfer.fromAccount, transfer.toAccount,
                        transfer.payerUserID, transfer.payeeUserID, transfer.amountMinor, transfer.currency, at,
                    ]
                    postings += [
                        transfer.id, transfer.fromAccount, -transfer.amountMinor, at,
                        transfer.id, transfer.toAccount, transfer.amountMinor, at,
                    ]
                    lines += [history.userID, line.amountMinor, history.currency, line.merchant, line.category, at]
                    balance = after
                }
                func values(_ count: Int, _ columns: Int) -> String {
                    let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
                    return Array(repeating: row, count: count).joined(separator: ", ")
                }
                try db.cachedStatement(sql: """
                    INSERT INTO transfers (id, reference, kind, from_account, to_account, payer_user_id, payee_user_id,
                                           amount_minor, currency, created_at)
                    VALUES \(values(indexes.count, 10))
                    """).execute(arguments: transfers)
                try db.cachedStatement(sql: """
                    INSERT INTO postings (transfer_id, account_id, amount_minor, created_at) VALUES \(values(indexes.count * 2, 4))
                    """).execute(arguments: postings)
                try db.cachedStatement(sql: """
                    INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                    VALUES \(values(indexes.count, 6))
                    """).execute(arguments: lines)
            }
            // Both balances at 0 or more: the difference fits.
            let moved = balance - start
            if moved != 0 {
                try work.credit(wallet, moved)
                try work.credit(LedgerAccountID.generated(currency: history.currency), -moved)
            }
            return balance
        }
    }

    func transfer(id: String, userID: String) async throws -> TransferRecord? {
        try await pool.unsafeRead { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM transfers WHERE id = ? AND (payer_user_id = ? OR payee_user_id = ?)"),
                arguments: [id, userID, userID]
            ).map(Self.record)
        }
    }

    func createStepUp(_ record: StepUpRecord) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO step_ups (token_hash, session_token_hash, user_id, created_at, expires_at, payee_user_id,
                                          amount_minor)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.tokenHash, record.sessionTokenHash, record.userID, record.createdAt.millisecondsSince1970,
                    record.expiresAt.millisecondsSince1970, record.payeeUserID, record.amountMinor,
                ]
            )
        }
    }

    func totals() async throws -> LedgerTotals {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT
                    (SELECT COALESCE(SUM(balance_minor), 0) FROM ledger_accounts) AS balance_sum,
                    (SELECT COUNT(*) FROM ledger_accounts AS a WHERE a.balance_minor <>
                        (SELECT COALESCE(SUM(p.amount_minor), 0) FROM postings AS p WHERE p.account_id = a.id))
                        AS off_postings,
                    (SELECT COUNT(*) FROM (SELECT transfer_id FROM postings GROUP BY transfer_id
                        HAVING SUM(amount_minor) <> 0 OR COUNT(*) <> 2)) +
                    (SELECT COUNT(*) FROM transfers AS t WHERE NOT EXISTS
                        (SELECT 1 FROM postings AS p WHERE p.transfer_id = t.id)) AS unbalanced,
                    (SELECT COUNT(*) FROM ledger_accounts WHERE kind = 'wallet' AND balance_minor < 0) AS negative
                """)
            return LedgerTotals(
                balanceSum: row?["balance_sum"] ?? 0, accountsOffPostings: row?["off_postings"] ?? 0,
                unbalancedTransfers: row?["unbalanced"] ?? 0, negativeWallets: row?["negative"] ?? 0
            )
        }
    }

    static func record(_ row: Row) -> TransferRecord {
        TransferRecord(
            id: row["id"], reference: row["reference"], kind: TransferKind(rawValue: row["kind"]) ?? .transfer,
            fromAccount: row["from_account"], toAccount: row["to_account"], payerUserID: row["payer_user_id"],
            payeeUserID: row["payee_user_id"], amountMinor: row["amount_minor"], currency: row["currency"],
            note: row["note"], createdAt: row.date("created_at")
        )
    }
}

/// Statement lines to write in one `INSERT` (the tail of a batch of transfers). FTS5 keeps the terms of the rows a
/// statement adds in memory and writes them as a new segment at the next statement's savepoint, which SQLite opens for
/// every statement that may abort part-way (a trigger, a foreign key): one `INSERT` a line cost a segment a line, and
/// FTS5's merges of them ([0177](../../../docs/decisions/0177-statement-lines-at-the-end-of-a-group-commit.md)).
struct StatementLines: SQLiteBatchTail {
    private var rows: [(line: StatementLine, transfer: TransferRecord)] = []

    /// At most this many lines an `INSERT` (nine bound values each, far under SQLite's 32,766).
    static let linesAStatement = 128

    mutating func add(_ lines: [StatementLine], of transfer: TransferRecord) {
        rows += lines.map { ($0, transfer) }
    }

    func write(_ db: Database) throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = rows[start..<min(start + Self.linesAStatement, rows.endIndex)]
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            var arguments = StatementArguments()
            for (item, transfer) in chunk {
                arguments += [
                    item.userID, item.amountMinor, transfer.currency, item.merchant, item.category,
                    transfer.createdAt.millisecondsSince1970, transfer.id, transfer.note, transfer.reference,
                ]
            }
            try db.cachedStatement(sql: """
                INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at, transfer_id,
                                          note, reference)
                VALUES \(values)
                """).execute(arguments: arguments)
            start = chunk.endIndex
        }
    }
}

struct SQLiteRateWindowRepository: RateWindowRepository {
    let pool: MeteredPool

    func take(scope: String, at date: Date, since: Date, limit: Int) async throws -> Date? {
        try await pool.write { db in
            let counted = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM rate_events WHERE scope = ? AND at > ?"),
                arguments: [scope, since.millisecondsSince1970]
            )
            let count: Int = counted?["n"] ?? 0
            if count >= limit { return counted?.optionalDate("oldest") }
            try db.cachedStatement(sql: "INSERT INTO rate_events (scope, at) VALUES (?, ?)")
                .execute(arguments: [scope, date.millisecondsSince1970])
            return nil
        }
    }
}

/// The ledger's SQL in a write transaction: the facts `Ledger` decides on and the movements it decides.
extension SQLiteUnitOfWork {
    /// The balance of ledger account `id`; nil when there is none.
    func balance(_ id: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT balance_minor FROM ledger_accounts WHERE id = ?"), arguments: [id])
    }

    /// What `Ledger.transfer` reads. `BEGIN IMMEDIATE` holds SQLite's one write lock from the first read: no other
    /// writer can change a fact before the movement is made.
    func transferFacts(_ order: TransferOrder) throws -> Ledger.TransferFacts {
        let from = LedgerAccountID.wallet(userID: order.payerUserID, currency: order.currency)
        let to = LedgerAccountID.wallet(userID: order.payeeUserID, currency: order.currency)
        let earlier = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM transfers WHERE payer_user_id = ? AND idempotency_key = ?"),
            arguments: [order.payerUserID, order.idempotencyKey]
        ).map { Ledger.KeyedTransfer(transfer: SQLiteLedgerRepository.record($0), requestHash: $0["request_hash"]) }
        let sentToday = try Int64.fetchOne(
            db.cachedStatement(sql: """
                SELECT COALESCE(SUM(amount_minor), 0) FROM transfers
                WHERE from_account = ? AND kind = 'transfer' AND created_at >= ?
                """),
            arguments: [from, order.dayStart.millisecondsSince1970]
        ) ?? 0
        var stepUpUsable = true
        if let stepUp = order.stepUp {
            stepUpUsable = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM step_ups WHERE \(Self.usableStepUp) AND payee_user_id = ? AND amount_minor = ?"),
                arguments: [
                    stepUp.tokenHash, stepUp.sessionTokenHash, order.at.millisecondsSince1970, order.payeeUserID,
                    order.amountMinor,
                ]
            ) ?? false
        }
        return Ledger.TransferFacts(
            earlier: earlier, payerBalanceMinor: try balance(from), payeeHasWallet: try balance(to) != nil,
            sentTodayMinor: sentToday, stepUpUsable: stepUpUsable
        )
    }

    /// A step-up proof that may be used now: its hash, its session's, unused, unexpired at the time given.
    private static let usableStepUp = "token_hash = ? AND session_token_hash = ? AND used_at IS NULL AND expires_at > ?"

    /// Opens `account` (`ifAbsent`: unless it exists) with a zero balance.
    func open(_ account: LedgerAccount, ifAbsent: Bool) throws {
        try db.cachedStatement(sql: """
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at) VALUES (?, ?, ?, ?, 0, ?)
            \(ifAbsent ? "ON CONFLICT (id) DO NOTHING" : "")
            """).execute(arguments: [
                account.id, account.kind.rawValue, account.userID, account.currency, account.createdAt.millisecondsSince1970,
            ])
    }

    /// Adds `amountMinor` to account `id`; SQLite raises an error rather than overflow.
    func credit(_ id: String, _ amountMinor: Int64) throws {
        try db.cachedStatement(sql: "UPDATE ledger_accounts SET balance_minor = balance_minor + ? WHERE id = ?")
            .execute(arguments: [amountMinor, id])
    }

    /// Makes `movement` (in `LedgerMovement`'s order), its statement lines included.
    func make(_ movement: LedgerMovement) throws {
        var lines = StatementLines()
        try make(movement, deferringLinesTo: &lines)
        try lines.write(db)
    }

    /// Makes `movement` (in `LedgerMovement`'s order) but its statement lines, which it adds to `lines`.
    func make(_ movement: LedgerMovement, deferringLinesTo lines: inout StatementLines) throws {
        let transfer = movement.transfer
        let at = transfer.createdAt.millisecondsSince1970
        for account in movement.opens { try open(account, ifAbsent: true) }
        if movement.payerIsWallet {
            try db.cachedStatement(sql: """
                UPDATE ledger_accounts SET balance_minor = balance_minor - ? WHERE id = ? AND balance_minor >= ?
                """).execute(arguments: [transfer.amountMinor, transfer.fromAccount, transfer.amountMinor])
            guard db.changesCount == 1 else { throw LedgerWriteError.conditionChanged("payer's balance") }
        } else {
            try credit(transfer.fromAccount, -transfer.amountMinor)
        }
        if let stepUp = movement.stepUp {
            try db.cachedStatement(sql: "UPDATE step_ups SET used_at = ? WHERE \(Self.usableStepUp)")
                .execute(arguments: [at, stepUp.tokenHash, stepUp.sessionTokenHash, at])
            guard db.changesCount == 1 else { throw LedgerWriteError.conditionChanged("step-up") }
        }
        try credit(transfer.toAccount, transfer.amountMinor)
        try db.cachedStatement(sql: """
            INSERT INTO transfers (id, reference, kind, from_account, to_account, payer_user_id, payee_user_id,
                                   amount_minor, currency, note, idempotency_key, request_hash, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                transfer.id, transfer.reference, transfer.kind.rawValue, transfer.fromAccount, transfer.toAccount,
                transfer.payerUserID, transfer.payeeUserID, transfer.amountMinor, transfer.currency, transfer.note,
                movement.key?.idempotencyKey, movement.key?.requestHash, at,
            ])
        let posting = try db.cachedStatement(sql: """
            INSERT INTO postings (transfer_id, account_id, amount_minor, created_at) VALUES (?, ?, ?, ?)
            """)
        try posting.execute(arguments: [transfer.id, transfer.fromAccount, -transfer.amountMinor, at])
        try posting.execute(arguments: [transfer.id, transfer.toAccount, transfer.amountMinor, at])
        lines.add(movement.lines, of: transfer)
        if let notification = movement.notification { try insert(notification) }
    }

    /// Opens a new user's wallet with its opening balance (`Ledger.openWallet`).
    func make(_ opening: Ledger.WalletOpening) throws {
        try open(opening.wallet, ifAbsent: false)
        if let movement = opening.movement { try make(movement) }
    }
}
