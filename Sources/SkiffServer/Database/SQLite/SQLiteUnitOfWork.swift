import GRDB

/// One SQLite write transaction that several areas write into together (a transfer and its payee's notification, a
/// new account's user, wallet, card and welcome). Each area adds its writes to it in an extension in its own file, so
/// no repository calls another's.
struct SQLiteUnitOfWork {
    let db: Database
}
