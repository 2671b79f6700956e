/// The ledger's tables, written once for both stores: SQLite reads `BIGINT` as an integer column, and every other
/// word here means the same in both. What differs is passed in: the postings' generated id, and the triggers that
/// refuse updates and deletes (SQLiteLedgerRepository.schema, PostgresLedgerRepository.schema).
enum LedgerSchema {
    /// The statements, in order; `postingID` is the postings table's id column.
    static func statements(postingID: String) -> [String] {
        [
            """
            CREATE TABLE ledger_accounts (
                id TEXT NOT NULL PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('wallet', 'card', 'system')),
                user_id TEXT REFERENCES users(id),
                currency TEXT NOT NULL,
                balance_minor BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                CHECK (kind <> 'wallet' OR balance_minor >= 0)
            )
            """,
            "CREATE UNIQUE INDEX ledger_accounts_wallet ON ledger_accounts (user_id, currency) WHERE kind = 'wallet'",
            """
            CREATE TABLE transfers (
                id TEXT NOT NULL PRIMARY KEY,
                reference TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL,
                from_account TEXT NOT NULL REFERENCES ledger_accounts(id),
                to_account TEXT NOT NULL REFERENCES ledger_accounts(id),
                payer_user_id TEXT,
                payee_user_id TEXT,
                amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
                currency TEXT NOT NULL,
                note TEXT,
                idempotency_key TEXT,
                request_hash TEXT,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE UNIQUE INDEX transfers_payer_key ON transfers (payer_user_id, idempotency_key)
                WHERE idempotency_key IS NOT NULL
            """,
            "CREATE INDEX transfers_outgoing ON transfers (from_account, created_at)",
            """
            CREATE TABLE postings (
                \(postingID),
                transfer_id TEXT NOT NULL REFERENCES transfers(id),
                account_id TEXT NOT NULL REFERENCES ledger_accounts(id),
                amount_minor BIGINT NOT NULL CHECK (amount_minor <> 0),
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX postings_account ON postings (account_id)",
            "CREATE INDEX postings_transfer ON postings (transfer_id)",
            """
            CREATE TABLE step_ups (
                token_hash TEXT NOT NULL PRIMARY KEY,
                session_token_hash TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX step_ups_expiry ON step_ups (expires_at)",
            "CREATE TABLE rate_events (scope TEXT NOT NULL, at BIGINT NOT NULL)",
            "CREATE INDEX rate_events_scope ON rate_events (scope, at)",
        ]
    }

    /// Migration `step-up-binding`: the payee and amount a proof was asked for. Proofs made before have neither and
    /// match no transfer (they last 5 minutes). Never changes once released.
    static let stepUpBinding = [
        "ALTER TABLE step_ups ADD COLUMN payee_user_id TEXT",
        "ALTER TABLE step_ups ADD COLUMN amount_minor BIGINT",
    ]

    /// Top-ups (migration `top-ups`). No foreign key to `cards`: a removed card's top-ups stay
    /// readable.
    static let topUps: [String] = [
        """
        CREATE TABLE topups (
            id TEXT NOT NULL PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users(id),
            card_id TEXT NOT NULL,
            card_brand TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
            currency TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'declined')),
            verification_id TEXT,
            verification_expires_at BIGINT,
            transfer_id TEXT REFERENCES transfers(id),
            reference TEXT,
            authorization_id TEXT,
            decline_reason TEXT,
            idempotency_key TEXT NOT NULL,
            request_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            completed_at BIGINT,
            CHECK ((status = 'completed') = (transfer_id IS NOT NULL))
        )
        """,
        "CREATE UNIQUE INDEX topups_user_key ON topups (user_id, idempotency_key)",
        "CREATE INDEX topups_user ON topups (user_id, created_at)",
    ]
}
