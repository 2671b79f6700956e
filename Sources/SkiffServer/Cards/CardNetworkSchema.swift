/// What migration `card-network` adds, the same SQL on both stores (issue 45): the network's id of each added card,
/// one account per card (a unique index over external cards' fingerprints; cards that were on several accounts
/// before keep their places, their later copies' fingerprints made distinct), each user's customer at the network,
/// each top-up's payment at the network, where its holder confirms it and its card's fingerprint (for the
/// limits per card), and the webhook events handled.
/// Never changes once released.
enum CardNetworkSchema {
    static let statements = [
        "ALTER TABLE cards ADD COLUMN network_card_id TEXT",
        """
        UPDATE cards SET fingerprint = fingerprint || ':' || id
        WHERE kind = 'external' AND EXISTS (
            SELECT 1 FROM cards AS earlier
            WHERE earlier.kind = 'external' AND earlier.fingerprint = cards.fingerprint
              AND (earlier.created_at < cards.created_at OR (earlier.created_at = cards.created_at AND earlier.id < cards.id))
        )
        """,
        "CREATE UNIQUE INDEX cards_one_account ON cards (fingerprint) WHERE kind = 'external'",
        "ALTER TABLE topups ADD COLUMN payment_id TEXT",
        "ALTER TABLE topups ADD COLUMN action_url TEXT",
        "ALTER TABLE topups ADD COLUMN card_fingerprint TEXT",
        "CREATE INDEX topups_card ON topups (card_fingerprint, created_at)",
        "CREATE UNIQUE INDEX topups_payment ON topups (payment_id)",
        """
        CREATE TABLE card_network_customers (
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            network TEXT NOT NULL,
            customer_id TEXT NOT NULL,
            PRIMARY KEY (user_id, network)
        )
        """,
        """
        CREATE TABLE card_network_events (
            id TEXT NOT NULL PRIMARY KEY,
            received_at BIGINT NOT NULL
        )
        """,
    ]
}
