import PostgresNIO

// The ledger's statements on the transfer and top-up paths, prepared once per connection (`PostgresStatement`).

/// Locks the accounts of `ids` that exist, in the order of their ids, and answers `(id, balance_minor)`.
struct LockLedgerAccounts: PostgresStatement {
    static let sql = "SELECT id, balance_minor FROM ledger_accounts WHERE id = ANY($1::TEXT[]) ORDER BY id FOR UPDATE"
    static let bindingTypes: [PostgresDataType] = [.textArray]
    var bindings = PostgresBindings()

    init(ids: [String]) {
        bindings.append(ids)
    }
}

/// What a transfer reads once its wallets are locked: `sent_today` (the payer's transfers to people since the day's
/// start), `step_up_usable` (the proof matches payee and amount and is unused and unexpired), and the columns of the
/// payer's transfer made with the order's key (`PostgresLedgerRepository.columns`, `request_hash`), NULL when none.
struct TransferFactsAfterLock: PostgresStatement {
    static let sql = """
        SELECT
            (SELECT COALESCE(SUM(amount_minor), 0) FROM transfers
             WHERE from_account = $1::TEXT AND kind = 'transfer' AND created_at >= $2::BIGINT)::BIGINT AS sent_today,
            EXISTS (SELECT 1 FROM step_ups
                    WHERE token_hash = $3::TEXT AND session_token_hash = $4::TEXT AND used_at IS NULL
                      AND expires_at > $5::BIGINT AND payee_user_id = $6::TEXT AND amount_minor = $7::BIGINT)
                AS step_up_usable,
            \(PostgresLedgerRepository.columns.split(separator: ", ").map { "earlier.\($0)" }.joined(separator: ", ")),
            earlier.request_hash
        FROM (SELECT 1) AS one
        LEFT JOIN transfers AS earlier ON earlier.payer_user_id = $8::TEXT AND earlier.idempotency_key = $9::TEXT
        """
    static let bindingTypes: [PostgresDataType] = [.text, .int8, .text, .text, .int8, .text, .int8, .text, .text]
    var bindings = PostgresBindings()

    init(order: TransferOrder, payerWallet: String) {
        bindings.append(payerWallet)
        bindings.append(order.dayStart.millisecondsSince1970)
        bindings.append(order.stepUp?.tokenHash)
        bindings.append(order.stepUp?.sessionTokenHash)
        bindings.append(order.at.millisecondsSince1970)
        bindings.append(order.payeeUserID)
        bindings.append(order.amountMinor)
        bindings.append(order.payerUserID)
        bindings.append(order.idempotencyKey)
    }
}

/// Every write of a `LedgerMovement` but the accounts it opens, in one statement: the paying account's debit (a
/// wallet's only where its balance covers the amount), the step-up proof's use, the credit, the transfer, its two
/// postings, its statement lines and the payee's notification. A part the movement lacks writes nothing (a NULL
/// step-up token, empty line arrays, a NULL notification id). Answers how many rows the debit and the step-up changed.
struct MakeMovement: PostgresStatement {
    static let sql = """
        WITH debit AS (
            UPDATE ledger_accounts SET balance_minor = balance_minor - $1::BIGINT
            WHERE id = $2::TEXT AND (NOT $3::BOOLEAN OR balance_minor >= $1::BIGINT)
            RETURNING id
        ), step_up AS (
            UPDATE step_ups SET used_at = $4::BIGINT
            WHERE token_hash = $5::TEXT AND session_token_hash = $6::TEXT AND used_at IS NULL AND expires_at > $4::BIGINT
            RETURNING token_hash
        ), credit AS (
            UPDATE ledger_accounts SET balance_minor = balance_minor + $1::BIGINT WHERE id = $7::TEXT
        ), transfer AS (
            INSERT INTO transfers (id, reference, kind, from_account, to_account, payer_user_id, payee_user_id,
                                   amount_minor, currency, note, idempotency_key, request_hash, created_at)
            VALUES ($8::TEXT, $9::TEXT, $10::TEXT, $2::TEXT, $7::TEXT, $11::TEXT, $12::TEXT, $1::BIGINT, $13::TEXT,
                    $14::TEXT, $15::TEXT, $16::TEXT, $4::BIGINT)
        ), postings AS (
            INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
            VALUES ($8::TEXT, $2::TEXT, -$1::BIGINT, $4::BIGINT), ($8::TEXT, $7::TEXT, $1::BIGINT, $4::BIGINT)
        ), lines AS (
            INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at, transfer_id,
                                      note, reference)
            SELECT user_id, amount_minor, $13::TEXT, merchant, category, $4::BIGINT, $8::TEXT, $14::TEXT, $9::TEXT
            FROM unnest($17::TEXT[], $18::BIGINT[], $19::TEXT[], $20::TEXT[]) AS line(user_id, amount_minor, merchant, category)
        ), notification AS (
            INSERT INTO notifications (id, user_id, title, body, created_at, read_at)
            SELECT $21::TEXT, $22::TEXT, $23::TEXT, $24::TEXT, $25::BIGINT, $26::BIGINT WHERE $21::TEXT IS NOT NULL
        )
        SELECT (SELECT COUNT(*) FROM debit)::BIGINT, (SELECT COUNT(*) FROM step_up)::BIGINT
        """
    static let bindingTypes: [PostgresDataType] = [
        .int8, .text, .bool, .int8, .text, .text, .text, .text, .text, .text, .text, .text, .text, .text, .text, .text,
        .textArray, .int8Array, .textArray, .textArray, .text, .text, .text, .text, .int8, .int8,
    ]
    var bindings = PostgresBindings()

    init(_ movement: LedgerMovement) {
        let transfer = movement.transfer
        bindings.append(transfer.amountMinor)
        bindings.append(transfer.fromAccount)
        bindings.append(movement.payerIsWallet)
        bindings.append(transfer.createdAt.millisecondsSince1970)
        bindings.append(movement.stepUp?.tokenHash)
        bindings.append(movement.stepUp?.sessionTokenHash)
        bindings.append(transfer.toAccount)
        bindings.append(transfer.id)
        bindings.append(transfer.reference)
        bindings.append(transfer.kind.rawValue)
        bindings.append(transfer.payerUserID)
        bindings.append(transfer.payeeUserID)
        bindings.append(transfer.currency)
        bindings.append(transfer.note)
        bindings.append(movement.key?.idempotencyKey)
        bindings.append(movement.key?.requestHash)
        bindings.append(movement.lines.map(\.userID))
        bindings.append(movement.lines.map(\.amountMinor))
        bindings.append(movement.lines.map(\.merchant))
        bindings.append(movement.lines.map(\.category))
        let notification = movement.notification
        bindings.append(notification?.id)
        bindings.append(notification?.userID)
        bindings.append(notification?.title)
        bindings.append(notification?.body)
        bindings.append(notification?.createdAt.millisecondsSince1970)
        bindings.append(notification?.readAt?.millisecondsSince1970)
    }
}
