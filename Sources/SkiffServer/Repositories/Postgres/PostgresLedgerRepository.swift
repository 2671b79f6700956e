import Foundation
import Logging
import PostgresNIO

/// The ledger on PostgreSQL, at READ COMMITTED. A transfer locks both wallets first, in the order of their ids
/// (`SELECT … ORDER BY id FOR UPDATE`), so that A→B and B→A wait for each other instead of deadlocking; every read
/// after the lock sees what the transfers before it committed (docs/decisions, "ledger locking").
struct PostgresLedgerRepository: LedgerRepository {
    let database: PostgresDatabase

    /// The tables (migration 10). Postings and transfers are never updated or deleted: a trigger refuses it.
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

    /// Carries a refusal out of the transaction, so that it rolls back.
    private struct Refused: Error {
        var outcome: TransferOutcome
    }

    func walletBalance(userID: String, currency: String) async throws -> Int64? {
        let id = LedgerAccountID.wallet(userID: userID, currency: currency)
        return try await database.rows("SELECT balance_minor FROM ledger_accounts WHERE id = \(id)")
            .first?.decode(Int64.self)
    }

    func transfer(_ order: TransferOrder) async throws -> TransferOutcome {
        let logger = database.logger
        do {
            return try await database.transaction { connection in
                try await Self.transfer(order, connection, logger)
            }
        } catch let refused as Refused {
            return refused.outcome
        } catch let error where error.isPostgresUniqueViolation {
            // A request with the same key committed between this one's replay check and its insert: it is answered
            // from what that one wrote. (The payer's lock makes this rare; a key reused across currencies reaches it.)
            // With no row of that key, another unique column clashed (a reference's 40 random bits): nothing was
            // written and the error stands, as on SQLite; the same request again draws a new reference.
            guard let earlier = try await replay(order) else { throw error }
            return earlier
        }
    }

    private func replay(_ order: TransferOrder) async throws -> TransferOutcome? {
        try await database.rows("""
            SELECT \(unescaped: Self.columns), request_hash FROM transfers
            WHERE payer_user_id = \(order.payerUserID) AND idempotency_key = \(order.idempotencyKey)
            """).first.map { row in
            let (earlier, hash) = try Self.recordAndHash(row)
            return hash == order.requestHash ? .replayed(earlier) : .keyReused
        }
    }

    private static func transfer(_ order: TransferOrder, _ connection: PostgresConnection, _ logger: Logger) async throws -> TransferOutcome {
        let from = LedgerAccountID.wallet(userID: order.payerUserID, currency: order.currency)
        let to = LedgerAccountID.wallet(userID: order.payeeUserID, currency: order.currency)
        var locked: Set<String> = []
        for try await id in try await connection.query(
            "SELECT id FROM ledger_accounts WHERE id IN (\(from), \(to)) ORDER BY id FOR UPDATE", logger: logger
        ).decode(String.self) {
            locked.insert(id)
        }
        // After the payer's lock: a request with the same key that ran before this one has committed.
        for try await row in try await connection.query("""
            SELECT \(unescaped: columns), request_hash FROM transfers
            WHERE payer_user_id = \(order.payerUserID) AND idempotency_key = \(order.idempotencyKey)
            """, logger: logger) {
            let (earlier, hash) = try recordAndHash(row)
            throw Refused(outcome: hash == order.requestHash ? .replayed(earlier) : .keyReused)
        }
        guard locked.contains(to) else { throw Refused(outcome: .payeeHasNoWallet) }
        guard locked.contains(from) else { throw Refused(outcome: .insufficientFunds) }
        var sentToday: Int64 = 0
        for try await sum in try await connection.query("""
            SELECT COALESCE(SUM(amount_minor), 0)::BIGINT FROM transfers
            WHERE from_account = \(from) AND kind = 'transfer' AND created_at >= \(order.dayStart.millisecondsSince1970)
            """, logger: logger).decode(Int64.self) {
            sentToday = sum
        }
        let (total, overflow) = sentToday.addingReportingOverflow(order.amountMinor)
        if overflow || total > order.dailyLimitMinor {
            throw Refused(outcome: .overDailyLimit(remainingMinor: max(0, order.dailyLimitMinor - sentToday)))
        }
        let at = order.at.millisecondsSince1970
        if let stepUp = order.stepUp {
            let used = try await connection.query("""
                UPDATE step_ups SET used_at = \(at)
                WHERE token_hash = \(stepUp.tokenHash) AND session_token_hash = \(stepUp.sessionTokenHash)
                  AND used_at IS NULL AND expires_at > \(at)
                RETURNING token_hash
                """, logger: logger).collect()
            guard used.count == 1 else { throw Refused(outcome: .stepUpInvalid) }
        }
        let debited = try await connection.query("""
            UPDATE ledger_accounts SET balance_minor = balance_minor - \(order.amountMinor)
            WHERE id = \(from) AND balance_minor >= \(order.amountMinor) RETURNING id
            """, logger: logger).collect()
        guard debited.count == 1 else { throw Refused(outcome: .insufficientFunds) }
        try await connection.query(creditQuery(to, order.amountMinor), logger: logger)
        let made = TransferRecord(
            id: order.id, reference: order.reference, kind: .transfer, fromAccount: from, toAccount: to,
            payerUserID: order.payerUserID, payeeUserID: order.payeeUserID, amountMinor: order.amountMinor,
            currency: order.currency, note: order.note, createdAt: order.at
        )
        try await record(
            made, idempotencyKey: order.idempotencyKey, requestHash: order.requestHash,
            lines: [order.payerLine, order.payeeLine], connection, logger
        )
        try await connection.query(PostgresNotificationRepository.insertQuery(order.notification), logger: logger)
        return .made(made)
    }

    /// Adds `amountMinor` to account `id`; BIGINT arithmetic raises an error rather than overflow.
    static func creditQuery(_ id: String, _ amountMinor: Int64) -> PostgresQuery {
        "UPDATE ledger_accounts SET balance_minor = balance_minor + \(amountMinor) WHERE id = \(id)"
    }

    /// Writes a transfer whose balances are already moved: its row, its two postings and its statement lines.
    static func record(
        _ transfer: TransferRecord, idempotencyKey: String?, requestHash: String?, lines: [StatementLine],
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        let at = transfer.createdAt.millisecondsSince1970
        try await connection.query("""
            INSERT INTO transfers (id, reference, kind, from_account, to_account, payer_user_id, payee_user_id,
                                   amount_minor, currency, note, idempotency_key, request_hash, created_at)
            VALUES (\(transfer.id), \(transfer.reference), \(transfer.kind.rawValue), \(transfer.fromAccount),
                    \(transfer.toAccount), \(transfer.payerUserID), \(transfer.payeeUserID), \(transfer.amountMinor),
                    \(transfer.currency), \(transfer.note), \(idempotencyKey), \(requestHash), \(at))
            """, logger: logger)
        try await connection.query("""
            INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
            VALUES (\(transfer.id), \(transfer.fromAccount), \(-transfer.amountMinor), \(at)),
                   (\(transfer.id), \(transfer.toAccount), \(transfer.amountMinor), \(at))
            """, logger: logger)
        guard !lines.isEmpty else { return }
        try await connection.query("""
            INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at, transfer_id,
                                      note, reference)
            SELECT user_id, amount_minor, \(transfer.currency), merchant, category, \(at), \(transfer.id),
                   \(transfer.note), \(transfer.reference)
            FROM unnest(\(lines.map(\.userID))::TEXT[], \(lines.map(\.amountMinor))::BIGINT[],
                        \(lines.map(\.merchant))::TEXT[], \(lines.map(\.category))::TEXT[])
                AS line(user_id, amount_minor, merchant, category)
            """, logger: logger)
    }

    /// Opens the wallet of a new user with `openingMinor` paid in from the system's opening account (none when 0).
    static func openWallet(
        userID: String, currency: String, openingMinor: Int64, at date: Date, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        let at = date.millisecondsSince1970
        let wallet = LedgerAccountID.wallet(userID: userID, currency: currency)
        let opening = LedgerAccountID.opening(currency: currency)
        try await connection.query("""
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
            VALUES (\(wallet), 'wallet', \(userID), \(currency), 0, \(at))
            """, logger: logger)
        guard openingMinor > 0 else { return }
        try await connection.query("""
            INSERT INTO ledger_accounts (id, kind, currency, balance_minor, created_at)
            VALUES (\(opening), 'system', \(currency), 0, \(at)) ON CONFLICT (id) DO NOTHING
            """, logger: logger)
        try await connection.query(creditQuery(opening, -openingMinor), logger: logger)
        try await connection.query(creditQuery(wallet, openingMinor), logger: logger)
        try await record(
            TransferRecord(
                id: "opening-" + userID, reference: "OPEN-" + userID, kind: .opening, fromAccount: opening,
                toAccount: wallet, payerUserID: nil, payeeUserID: userID, amountMinor: openingMinor,
                currency: currency, note: nil, createdAt: date
            ),
            idempotencyKey: nil, requestHash: nil, lines: [], connection, logger
        )
    }

    /// One transaction: the wallet locked first, then the lines in batches, each batch three statements over arrays
    /// (`unnest`: its transfers, their postings, their statement lines); the balances move once at the end.
    func record(_ history: GeneratedHistory) async throws -> Int64 {
        let logger = database.logger
        return try await database.transaction { connection in
            let wallet = LedgerAccountID.wallet(userID: history.userID, currency: history.currency)
            let world = LedgerAccountID.generated(currency: history.currency)
            var locked: Int64?
            for try await value in try await connection.query(
                "SELECT balance_minor FROM ledger_accounts WHERE id = \(wallet) FOR UPDATE", logger: logger
            ).decode(Int64.self) {
                locked = value
            }
            guard var balance = locked else { throw GeneratedHistory.Refusal.noWallet }
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
                if batch == 0, let first = at.first {
                    try await connection.query("""
                        INSERT INTO ledger_accounts (id, kind, currency, balance_minor, created_at)
                        VALUES (\(world), 'system', \(history.currency), 0, \(first)) ON CONFLICT (id) DO NOTHING
                        """, logger: logger)
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
                try await connection.query(Self.creditQuery(wallet, moved), logger: logger)
                try await connection.query(Self.creditQuery(world, -moved), logger: logger)
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
        _ = try await database.rows("""
            INSERT INTO step_ups (token_hash, session_token_hash, user_id, created_at, expires_at)
            VALUES (\(record.tokenHash), \(record.sessionTokenHash), \(record.userID),
                    \(record.createdAt.millisecondsSince1970), \(record.expiresAt.millisecondsSince1970))
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

    static func record(_ row: PostgresRow) throws -> TransferRecord {
        let (id, reference, kind, from, to, payer, payee, amount, currency, note, createdAt) = try row.decode(
            (String, String, String, String, String, String?, String?, Int64, String, String?, Int64).self
        )
        return TransferRecord(
            id: id, reference: reference, kind: TransferKind(rawValue: kind) ?? .transfer, fromAccount: from,
            toAccount: to, payerUserID: payer, payeeUserID: payee, amountMinor: amount, currency: currency, note: note,
            createdAt: Date(millisecondsSince1970: createdAt)
        )
    }

    /// A row of `columns` followed by `request_hash`.
    private static func recordAndHash(_ row: PostgresRow) throws -> (TransferRecord, String?) {
        let (id, reference, kind, from, to, payer, payee, amount, currency, note, createdAt, hash) = try row.decode(
            (String, String, String, String, String, String?, String?, Int64, String, String?, Int64, String?).self
        )
        return (
            TransferRecord(
                id: id, reference: reference, kind: TransferKind(rawValue: kind) ?? .transfer, fromAccount: from,
                toAccount: to, payerUserID: payer, payeeUserID: payee, amountMinor: amount, currency: currency,
                note: note, createdAt: Date(millisecondsSince1970: createdAt)
            ),
            hash
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
