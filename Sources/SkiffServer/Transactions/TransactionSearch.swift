/// How a search over one person's transactions is answered at any size, the same rule on both stores.
///
/// A transaction matches when its merchant, category, note or reference (`columns`) contains the query, in any case;
/// a NULL note or reference (every line that is not a transfer's or a top-up's) matches nothing.
///
/// The trigram indexes (FTS5 `trigram` on SQLite, `pg_trgm` on PostgreSQL) answer a query of three characters or
/// more without reading every row. A shorter query has no trigram to look up, so it is matched against the newest
/// `shortQueryWindow` transactions only, and the answer says so (`TransactionPage.searchLimit`).
enum TransactionSearch {
    /// The columns of `transactions` a query is looked for in. The SQLite index and the PostgreSQL trigram indexes cover
    /// these since migration `search-note-reference`: a column added here needs an index of its own on both stores.
    static let columns = ["merchant", "category", "note", "reference"]

    /// The fewest characters (Unicode scalars, as the trigram tokenizers count) the indexes can look up.
    static let indexedLength = 3
    /// How many of the newest transactions a shorter query is matched against.
    static let shortQueryWindow = 10_000
    /// A query is first matched against this many of the newest transactions after the cursor: a common term
    /// fills its page there, before the index is asked.
    static let nearWalk = 2_000
    /// When the index finds at most this many rows they are read and sorted; more, and the term is common enough
    /// that walking the transactions newest first fills the page sooner.
    static let sortedMatchesLimit = 5_000

    /// Whether `query` is too short for the trigram indexes.
    static func isShort(_ query: String) -> Bool { query.unicodeScalars.count < indexedLength }

    /// `query` as one FTS5 phrase: quoted, its quotes doubled, so no input is read as FTS syntax. With the trigram
    /// tokenizer a phrase matches wherever the text contains it.
    static func ftsPhrase(_ query: String) -> String {
        "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
