import Foundation
import Logging
import PostgresNIO

/// The ledger on PostgreSQL, at READ COMMITTED. A transfer locks both wallets first, in the order of their ids
/// (`SELECT … ORDER BY id FOR UPDATE`), so that A→B and B→A wait for each other instead of deadlocking; every read
/// after the lock sees what the transfers before it committed (docs/decisions, "ledger locking").
struct PostgresLedgerRepository: LedgerRepository {
    let database: PostgresDatabase

    /// The tables (migration `ledger`). Postings and transfers are never updated or deleted: a trigger refuses it.
    static let schema: [String] = LedgerSchema.statements(postingID: "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY") + [
        """
        CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '% rows are never updated or deleted', TG_TABLE_NAME;
        END
        $$
        """,
        """
        CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings
            FOR EACH ROW EXECUTE FUNCTION ledger_append_only()
        """,
        """
        CREATE TRIGGER transfers_append_only BEFORE UPDATE OR DELETE ON transfers
            FOR EACH ROW EXECUTE FUNCTION ledger_append_only()
        """,
    ]

    func walletBalance(userID: String, currency: String) async throws -> Int64? {
        let id = LedgerAccountID.wallet(userID: userID, currency: currency)
        return try await database.rows("SELECT balance_minor FROM ledger_accounts WHERE id = \(id)")
            .first?.decode(Int64.self)
    }

    /// `Ledger.transfer` in one transaction; an answer that writes nothing commits nothing.
    func transfer(_ order: TransferOrder) async throws -> TransferOutcome {
        do {
            return try await database.unitOfWork { work in
                switch Ledger.transfer(order, try await work.transferFacts(order)) {
                case .answer(let outcome):
                    return outcome
                case .write(let movement, let outcome):
                    try await work.make(movement)
                    return outcome
                }
            }
        } catch let error where error.isPostgresUniqueViolation {
            // A request with the same key committed between this one's read of the key and its insert: it is answered
            // from what that one wrote. (The payer's lock makes this rare; a key reused across currencies reaches it.)
            // With no row of that key, another unique column clashed (a reference's 40 random bits): nothing was
            // written and the error stands, as on SQLite; the same request again draws a new reference.
            guard let earlier = try await database.rows(PostgresUnitOfWork.earlierTransfer(order)).first else { throw error }
            return Ledger.replay(order, try PostgresUnitOfWork.keyedTransfer(earlier))
        }
    }

    /// One transaction: the wallet locked first, then the lines in batches, each batch three statements over arrays
    /// (`unnest`: its transfers, their postings, their statement lines); the balances move once at the end.
    func record(_ history: GeneratedHistory) async throws -> Int64 {
        let logger = database.logger
        return try await database.unitOfWork { work in
            let connection = work.connection
            let wallet = LedgerAccountID.wallet(userID: history.userID, currency: history.currency)
            var balance = try Ledger.historyStart(history, walletBalanceMinor: try await work.lockedBalances([wallet])[wallet])
            let start = balance
            for batch in stride(from: 0, to: history.count, by: Self.historyBatch) {
                var transfers: [TransferRecord] = []
                var lines: [NewTransaction] = []
                for index in batch..<min(batch + Self.historyBatch, history.count) {
                    let (transfer, line, after) = try history.entry(index, balanceMinor: balance)
                    transfers.append(transfer)
                    lines.append(line)
                    balance = after
                }
                let at = transfers.map(\.createdAt.millisecondsSince1970)
                if batch == 0, let first = transfers.first {
                    try await work.open(Ledger.generatedWorld(history, at: first.createdAt), ifAbsent: true)
                }
                let ids = transfers.map(\.id)
                try await connection.query("""
                    INSERT INTO transfers (id, reference, kind, from_account, to_account, payer_user_id, payee_user_id,
                                           amount_minor, currency, created_at)
                    SELECT id, reference, \(TransferKind.generated.rawValue), from_account, to_account, NULLIF(payer, ''),
                           NULLIF(payee, ''), amount_minor, \(history.currency), created_at
                    FROM unnest(\(ids)::TEXT[], \(transfers.map(\.reference))::TEXT[], \(transfers.map(\.fromAccount))::TEXT[],
                                \(transfers.map(\.toAccount))::TEXT[], \(transfers.map { $0.payerUserID ?? "" })::TEXT[],
                                \(transfers.map { $0.payeeUserID ?? "" })::TEXT[], \(transfers.map(\.amountMinor))::BIGINT[],
                                \(at)::BIGINT[])
                        AS line(id, reference, from_account, to_account, payer, payee, amount_minor, created_at)
                    """, logger: logger)
                try await connection.query("""
                    INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
                    SELECT * FROM unnest(\(ids + ids)::TEXT[], \(transfers.map(\.fromAccount) + transfers.map(\.toAccount))::TEXT[],
                                         \(transfers.map { -$0.amountMinor } + transfers.map(\.amountMinor))::BIGINT[],
                                         \(at + at)::BIGINT[])
                    """, logger: logger)
                try await connection.query("""
                    INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                    SELECT \(history.userID), amount_minor, \(history.currency), merchant, category, created_at
                    FROM unnest(\(lines.map(\.amountMinor))::BIGINT[], \(lines.map(\.merchant))::TEXT[],
                                \(lines.map(\.category))::TEXT[], \(at)::BIGINT[])
                        AS line(amount_minor, merchant, category, created_at)
                    """, logger: logger)
            }
            // Both balances at 0 or more: the difference fits.
            let moved = balance - start
            if moved != 0 {
                try await work.credit(wallet, moved)
                try await work.credit(LedgerAccountID.generated(currency: history.currency), -moved)
            }
            return balance
        }
    }

    /// Lines of generated history a statement writes.
    private static let historyBatch = 5_000

    func transfer(id: String, userID: String) async throws -> TransferRecord? {
        try await database.rows("""
            SELECT \(unescaped: Self.columns) FROM transfers
            WHERE id = \(id) AND (payer_user_id = \(userID) OR payee_user_id = \(userID))
            """).first.map(Self.record)
    }

    func createStepUp(_ record: StepUpRecord) async throws {
        _ = try await database.write("""
            INSERT INTO step_ups (token_hash, session_token_hash, user_id, created_at, expires_at, payee_user_id, amount_minor)
            VALUES (\(record.tokenHash), \(record.sessionTokenHash), \(record.userID),
                    \(record.createdAt.millisecondsSince1970), \(record.expiresAt.millisecondsSince1970),
                    \(record.payeeUserID), \(record.amountMinor))
            """)
    }

    func totals() async throws -> LedgerTotals {
        guard let row = try await database.rows("""
            SELECT
                (SELECT COALESCE(SUM(balance_minor), 0) FROM ledger_accounts)::BIGINT,
                (SELECT COUNT(*) FROM ledger_accounts AS a WHERE a.balance_minor <>
                    (SELECT COALESCE(SUM(p.amount_minor), 0) FROM postings AS p WHERE p.account_id = a.id))::BIGINT,
                ((SELECT COUNT(*) FROM (SELECT transfer_id FROM postings GROUP BY transfer_id
                    HAVING SUM(amount_minor) <> 0 OR COUNT(*) <> 2) AS odd) +
                 (SELECT COUNT(*) FROM transfers AS t WHERE NOT EXISTS
                    (SELECT 1 FROM postings AS p WHERE p.transfer_id = t.id)))::BIGINT,
                (SELECT COUNT(*) FROM ledger_accounts WHERE kind = 'wallet' AND balance_minor < 0)::BIGINT
            """).first else { return LedgerTotals(balanceSum: 0, accountsOffPostings: 0, unbalancedTransfers: 0, negativeWallets: 0) }
        let (sum, off, unbalanced, negative) = try row.decode((Int64, Int64, Int64, Int64).self)
        return LedgerTotals(
            balanceSum: sum, accountsOffPostings: Int(off), unbalancedTransfers: Int(unbalanced), negativeWallets: Int(negative)
        )
    }

    /// The columns `record` reads, in its order.
    static let columns =
        "id, reference, kind, from_account, to_account, payer_user_id, payee_user_id, amount_minor, currency, note, created_at"

    /// A row with (at least) `columns`, read by name.
    static func record(_ row: PostgresRow) throws -> TransferRecord {
        let columns = row.makeRandomAccess()
        func text(_ name: String) throws -> String { try columns[name].decode(String.self) }
        func optionalText(_ name: String) throws -> String? { try columns[name].decode(String?.self) }
        return TransferRecord(
            id: try text("id"), reference: try text("reference"),
            kind: TransferKind(rawValue: try text("kind")) ?? .transfer, fromAccount: try text("from_account"),
            toAccount: try text("to_account"), payerUserID: try optionalText("payer_user_id"),
            payeeUserID: try optionalText("payee_user_id"), amountMinor: try columns["amount_minor"].decode(Int64.self),
            currency: try text("currency"), note: try optionalText("note"),
            createdAt: Date(millisecondsSince1970: try columns["created_at"].decode(Int64.self))
        )
    }
}

struct PostgresRateWindowRepository: RateWindowRepository {
    let database: PostgresDatabase

    /// Serialised per scope by a transaction-scoped advisory lock, so instances cannot both pass the limit.
    func take(scope: String, at date: Date, since: Date, limit: Int) async throws -> Date? {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\("rate:" + scope), 0))", logger: logger)
            var count: Int64 = 0
            var oldest: Int64?
            for try await (n, first) in try await connection.query("""
                SELECT COUNT(*)::BIGINT, MIN(at) FROM rate_events WHERE scope = \(scope) AND at > \(since.millisecondsSince1970)
                """, logger: logger).decode((Int64, Int64?).self) {
                count = n
                oldest = first
            }
            if count >= Int64(limit) { return oldest.map(Date.init(millisecondsSince1970:)) }
            try await connection.query(
                "INSERT INTO rate_events (scope, at) VALUES (\(scope), \(date.millisecondsSince1970))", logger: logger
            )
            return nil
        }
    }
}

/// The ledger's SQL in a transaction: the facts `Ledger` decides on and the movements it decides.
extension PostgresUnitOfWork {
    /// Locks the accounts of `ids` that exist, in the order of their ids (`SELECT … ORDER BY id FOR UPDATE`), so that
    /// A→B and B→A wait for each other instead of deadlocking; answers their balances. Every read after the lock sees
    /// what the transactions before it committed (READ COMMITTED).
    func lockedBalances(_ ids: [String]) async throws -> [String: Int64] {
        var balances: [String: Int64] = [:]
        for row in try await rows(LockLedgerAccounts(ids: ids)) {
            let (id, balance) = try row.decode((String, Int64).self)
            balances[id] = balance
        }
        return balances
    }

    /// What `Ledger.transfer` reads: both wallets locked, then in one statement the payer's transfer of the same key,
    /// what the payer has sent today and whether the step-up proof may be used. That statement begins after the lock,
    /// so it sees every transfer of the payer's that committed before (READ COMMITTED takes a snapshot a statement).
    func transferFacts(_ order: TransferOrder) async throws -> Ledger.TransferFacts {
        let from = LedgerAccountID.wallet(userID: order.payerUserID, currency: order.currency)
        let to = LedgerAccountID.wallet(userID: order.payeeUserID, currency: order.currency)
        let balances = try await lockedBalances([from, to])
        var facts = Ledger.TransferFacts(
            payerBalanceMinor: balances[from], payeeHasWallet: balances[to] != nil, sentTodayMinor: 0,
            stepUpUsable: order.stepUp == nil
        )
        // After the payer's lock: a request with the same key that ran before this one has committed.
        for row in try await rows(TransferFactsAfterLock(order: order, payerWallet: from)) {
            let columns = row.makeRandomAccess()
            facts.sentTodayMinor = try columns["sent_today"].decode(Int64.self)
            if order.stepUp != nil { facts.stepUpUsable = try columns["step_up_usable"].decode(Bool.self) }
            if try columns["id"].decode(String?.self) != nil { facts.earlier = try Self.keyedTransfer(row) }
        }
        return facts
    }

    /// The payer's transfer made with the order's key, as `keyedTransfer` reads it.
    static func earlierTransfer(_ order: TransferOrder) -> PostgresQuery {
        """
        SELECT \(unescaped: PostgresLedgerRepository.columns), request_hash FROM transfers
        WHERE payer_user_id = \(order.payerUserID) AND idempotency_key = \(order.idempotencyKey)
        """
    }

    /// A row of `PostgresLedgerRepository.columns` and `request_hash`.
    static func keyedTransfer(_ row: PostgresRow) throws -> Ledger.KeyedTransfer {
        Ledger.KeyedTransfer(
            transfer: try PostgresLedgerRepository.record(row),
            requestHash: try row.makeRandomAccess()["request_hash"].decode(String?.self)
        )
    }

    /// Opens `account` (`ifAbsent`: unless it exists) with a zero balance.
    func open(_ account: LedgerAccount, ifAbsent: Bool) async throws {
        let conflict = ifAbsent ? "ON CONFLICT (id) DO NOTHING" : ""
        try await query("""
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
            VALUES (\(account.id), \(account.kind.rawValue), \(account.userID), \(account.currency), 0,
                    \(account.createdAt.millisecondsSince1970)) \(unescaped: conflict)
            """)
    }

    /// Adds `amountMinor` to account `id`; BIGINT arithmetic raises an error rather than overflow.
    func credit(_ id: String, _ amountMinor: Int64) async throws {
        try await query("UPDATE ledger_accounts SET balance_minor = balance_minor + \(amountMinor) WHERE id = \(id)")
    }

    /// Makes `movement`: the accounts it opens first, then every other write in one statement, so a transfer's writes
    /// cost one round trip (issue 47). The parts of one statement do not see each other's rows, so the opened accounts
    /// come before it; the rest touch distinct rows. Parts a movement lacks write nothing (a NULL step-up token, empty
    /// line arrays, a NULL notification id), so the statement's text is the same for every movement.
    func make(_ movement: LedgerMovement) async throws {
        for account in movement.opens { try await open(account, ifAbsent: true) }
        var written = (debited: Int64(0), stepUpsUsed: Int64(0))
        for row in try await rows(MakeMovement(movement)) { written = try row.decode((Int64, Int64).self) }
        guard written.debited == 1 else { throw LedgerWriteError.conditionChanged("payer's balance") }
        if movement.stepUp != nil, written.stepUpsUsed != 1 { throw LedgerWriteError.conditionChanged("step-up") }
    }

    /// Opens a new user's wallet with its opening balance (`Ledger.openWallet`).
    func make(_ opening: Ledger.WalletOpening) async throws {
        try await open(opening.wallet, ifAbsent: false)
        if let movement = opening.movement { try await make(movement) }
    }
}
