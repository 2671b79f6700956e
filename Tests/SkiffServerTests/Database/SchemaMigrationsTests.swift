import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing
@testable import SkiffServer

@Suite("One migration history for both stores")
struct SchemaMigrationsTests {
    @Test("Both stores list the same migrations, by the same names, in the same order")
    func sameList() {
        let names = SchemaMigration.allCases.map(\.name)
        #expect(SQLiteMigrations.migrator.migrations == names)
        #expect(PostgresMigrations.migrations.map(\.name) == names)
        #expect(Set(names).count == names.count)
        #expect(names.first == "base" && SchemaMigration.newest == SchemaMigration.allCases.last)
    }

    @Test("The list keeps each store's old order: SQLite's v-numbers and PostgreSQL's versions rise along it, none left out")
    func oldOrderKept() throws {
        let identifiers = SchemaMigration.allCases.compactMap { migration in
            SQLiteMigrations.legacyIdentifiers.first { $0.value == migration }?.key
        }
        #expect(identifiers.count == SQLiteMigrations.legacyIdentifiers.count)
        let numbers = try identifiers.map { try #require(Int($0.dropFirst().prefix { $0.isNumber })) }
        #expect(numbers == Array(1...19).filter { $0 != 5 }, "\(identifiers)")

        // PostgreSQL's 1 made the base tables and search's trigram indexes at once; `search` goes where SQLite had it.
        #expect(PostgresMigrations.legacyVersions[.search] == 1 && PostgresMigrations.legacyVersions[.base] == 1)
        let versions = SchemaMigration.allCases.filter { $0 != .search }.compactMap { PostgresMigrations.legacyVersions[$0] }
        #expect(versions == Array(1...PostgresMigrations.legacyNewestVersion))
    }

    @Test("A database the numbered binaries migrated to their newest has its history in names, and lacks exactly the steps since, by their names, which it gets", arguments: TestStore.allCases)
    func legacyNewestGetsWhatCameAfter(store: TestStore) async throws {
        try await withLegacyDatabase(store, through: Self.legacyNewest) { location in
            // As `serve --no-migrate` and `/health/ready` read it, before anything was written.
            let refusal = await #expect(throws: PendingMigrationsError.self) {
                try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent)
            }
            #expect(refusal?.pending == Self.sinceLegacy.map(\.name))
            let older = try await openAsIs(location)
            let before = try await schema(older)
            await older.close()

            let lines = NIOLockedValueBox<[String]>([])
            let migrated = try await openRepositoryStore(location, logger: Self.capturing(lines))
            do {
                #expect(try await migrated.pendingMigrations() == [])
                #expect(try await recordedNames(migrated) == Set(SchemaMigration.allCases.map(\.name)))
                // It is now what a database made by this binary is; `card-network` made its tables and indexes.
                let after = try await schema(migrated)
                let fresh = try await freshSchema(store)
                #expect(after == fresh)
                let changed = Set(Set(before.keys).union(after.keys).filter { before[$0] != after[$0] })
                #expect(Self.cardNetworkObjects(store).isSubset(of: changed), "\(changed.sorted())")
                if store == .postgres {
                    #expect(try await legacyVersions(migrated) == Self.legacyNumbersOfNewest)
                }
            } catch {
                await migrated.close()
                throw error
            }
            await migrated.close()
            if store == .postgres {
                let runs = lines.withLockedValue { $0 }.filter { $0.contains("migrated PostgreSQL") }
                #expect(runs.count == Self.sinceLegacy.count && runs.first?.contains("card-network") == true, "\(runs)")
            }
        }
    }

    @Test("A database the numbered binaries left one step behind lacks exactly that step and those since, by their names, and gets exactly them", arguments: TestStore.allCases)
    func legacyOneBehind(store: TestStore) async throws {
        try await withLegacyDatabase(store, through: .searchNoteReference) { location in
            let refusal = await #expect(throws: PendingMigrationsError.self) {
                try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent)
            }
            #expect(refusal?.pending == ["spending-not-transfers"] + Self.sinceLegacy.map(\.name))
            let older = try await openAsIs(location)
            let before = try await schema(older)
            await older.close()

            let lines = NIOLockedValueBox<[String]>([])
            let migrated = try await openRepositoryStore(location, logger: Self.capturing(lines))
            do {
                #expect(try await migrated.pendingMigrations() == [])
                #expect(try await recordedNames(migrated) == Set(SchemaMigration.allCases.map(\.name)))
                // What changed is what `spending-not-transfers` makes again and what the steps since make, nothing else.
                let after = try await schema(migrated)
                let changed = Set(Set(before.keys).union(after.keys).filter { before[$0] != after[$0] })
                let fresh = try await freshSchema(store)
                #expect(after == fresh)
                let sinceLegacy = try await changedSinceLegacy(store)
                switch store {
                case .sqlite:
                    let triggers = ["spending_days", "spending_months"].flatMap { table in
                        ["delete", "insert", "update_new", "update_old"].map { "trigger \(table)_\($0)" }
                    }
                    #expect(changed == Set(triggers).union(sinceLegacy), "\(changed.sorted())")
                case .postgres:
                    #expect(changed == Set(["function spending_days_apply()"]).union(sinceLegacy), "\(changed.sorted())")
                    #expect(try await legacyVersions(migrated) == Self.legacyNumbersOfNewest)
                }
            } catch {
                await migrated.close()
                throw error
            }
            await migrated.close()
            if store == .postgres {
                let runs = lines.withLockedValue { $0 }.filter { $0.contains("migrated PostgreSQL") }
                #expect(runs.count == 1 + Self.sinceLegacy.count && runs.first?.contains("spending-not-transfers") == true, "\(runs)")
                #expect(runs.dropFirst().first?.contains("card-network") == true, "\(runs)")
            }
        }
    }

    @Test("A database the binary before the card network migrated (its names, up to spending-not-transfers) lacks card-network, by its name, and gets it", arguments: TestStore.allCases)
    func previousBinaryLacksCardNetwork(store: TestStore) async throws {
        #expect(Self.sinceLegacy.first == .cardNetwork && SchemaMigration.cardNetwork.name == "card-network")
        try await withEmptyDatabase(store) { location in
            try await migrate(location, upTo: .spendingNotTransfers)
            let refusal = await #expect(throws: PendingMigrationsError.self) {
                try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent)
            }
            #expect(refusal?.pending == Self.sinceLegacy.map(\.name))
            let migrated = try await openRepositoryStore(location, logger: TestStore.logger)
            #expect(try await migrated.pendingMigrations() == [])
            await migrated.close()
            // Opened again it is current, and nothing more is asked.
            try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent).close()
        }
    }

    @Test("card-network puts a card on one account: of cards on several accounts the first added keeps its place, later copies become distinct; then a second account is refused it", arguments: TestStore.allCases)
    func cardNetworkOneAccountPerCard(store: TestStore) async throws {
        try await withEmptyDatabase(store) { location in
            try await migrate(location, upTo: .spendingNotTransfers)
            let older = try await openAsIs(location)
            do {
                for (index, user) in ["a", "b", "c", "d"].enumerated() {
                    try await older.execute("""
                        INSERT INTO users (id, phone, country_code, national_number, full_name, password_hash, currency, created_at)
                        VALUES ('\(user)', '+120255501\(index)0', '1', '20255501\(index)0', 'Sam', 'hash', 'USD', 1)
                        """)
                }
                // (id, user, kind, fingerprint, created_at)
                let cards = [
                    ("x-first", "a", "external", "F", 100), ("x-later", "b", "external", "F", 200), ("x-same-time", "c", "external", "F", 200),
                    ("y-alone", "a", "external", "G", 100), ("issued-c", "c", "issued", "G", 50), ("issued-d", "d", "issued", "F", 10),
                ]
                for (id, user, kind, fingerprint, created) in cards {
                    try await older.execute("""
                        INSERT INTO cards (id, user_id, kind, brand, last4, expiry_month, expiry_year, holder_name, status, fingerprint, created_at)
                        VALUES ('\(id)', '\(user)', '\(kind)', 'visa', '4242', 12, 2031, 'Sam', 'active', '\(fingerprint)', \(created))
                        """)
                }
            } catch {
                await older.close()
                throw error
            }
            await older.close()

            let migrated = try await openRepositoryStore(location, logger: TestStore.logger)
            do {
                let rows = try await migrated.strings("SELECT id || '=' || fingerprint || '=' || COALESCE(network_card_id, '-') FROM cards ORDER BY id")
                #expect(rows == [
                    "issued-c=G=-", "issued-d=F=-", "x-first=F=-", "x-later=F:x-later=-", "x-same-time=F:x-same-time=-", "y-alone=G=-",
                ])
                let repositories = migrated.repositories
                #expect(try await repositories.cards.owner(ofExternalCard: "F") == "a")
                #expect(try await repositories.cards.owner(ofExternalCard: "G") == "a")
                #expect(try await repositories.cards.card(id: "x-later", userID: "b")?.networkCardID == nil)
                let again = CardRecord(
                    id: "x-new", userID: "d", kind: .external, brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2031,
                    holderName: "Sam", status: .active, fingerprint: "F", createdAt: Date(), networkCardID: "card_1"
                )
                await #expect(throws: RepositoryError.duplicate) { try await repositories.cards.insert(again, announcing: nil) }
                var other = again
                other.fingerprint = "H"
                try await repositories.cards.insert(other, announcing: nil)
                #expect(try await repositories.cards.card(id: "x-new", userID: "d")?.networkCardID == "card_1")
            } catch {
                await migrated.close()
                throw error
            }
            await migrated.close()
        }
    }

    @Test("A database migrated by a newer server (a migration this binary does not know) is refused with a message naming it", arguments: TestStore.allCases)
    func newerRefused(store: TestStore) async throws {
        try await withEmptyDatabase(store) { location in
            try await openRepositoryStore(location, logger: TestStore.logger).close()
            let migrated = try await openAsIs(location)
            try await migrated.execute(store == .sqlite
                ? "INSERT INTO grdb_migrations (identifier) VALUES ('from-a-newer-server')"
                : "INSERT INTO schema_migration_names (name) VALUES ('from-a-newer-server')")
            await migrated.close()
            let error = await #expect(throws: NewerSchemaError.self) {
                try await openRepositoryStore(location, logger: TestStore.logger).close()
            }
            #expect(error?.description == "The \(store == .sqlite ? "SQLite" : "PostgreSQL") database has had migrations "
                + "newer than this skiff-server knows (from-a-newer-server; its newest is \(SchemaMigration.newest.name)). "
                + "Run a skiff-server at least as new as the one that migrated it.")
        }
    }

    @Test("PostgreSQL records each step under its old number too, for older binaries: 1 once both base and search are; a step after the numbers one above the last, which those binaries refuse")
    func legacyNumbersWritten() async throws {
        try await withEmptyDatabase(.postgres) { location in
            let database = try await openAsIs(location)
            do {
                let postgres = try #require(database as? SkiffServer.PostgresDatabase)
                try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger, upTo: .spendingIndex)
                #expect(try await legacyVersions(database) == [2, 3, 4])
                try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger, upTo: Self.legacyNewest)
                #expect(try await legacyVersions(database) == Array(1...PostgresMigrations.legacyNewestVersion))
                try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger, upTo: .cardNetwork)
                #expect(try await legacyVersions(database) == Array(1...PostgresMigrations.legacyNewestVersion + 1))
                try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger)
                #expect(try await legacyVersions(database) == Self.legacyNumbersOfNewest)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
    }

    /// The newest migration of the binaries that numbered the steps.
    private static let legacyNewest = SchemaMigration.spendingNotTransfers
    /// The numbers PostgreSQL records for a database at this binary's newest: the old ones, and one above the last for
    /// the steps since (`card-network` the first), so that those binaries refuse it.
    private static let legacyNumbersOfNewest = Array(1...PostgresMigrations.legacyNewestVersion + (sinceLegacy.isEmpty ? 0 : 1))

    /// The migrations since, which a database they left lacks: `card-network` first.
    private static let sinceLegacy = Array(SchemaMigration.allCases.drop { $0 != legacyNewest }.dropFirst())

    /// The schema of a database this binary made from empty.
    private func freshSchema(_ store: TestStore) async throws -> [String: String] {
        var made: [String: String] = [:]
        try await withEmptyDatabase(store) { location in
            let fresh = try await openRepositoryStore(location, logger: TestStore.logger)
            do { made = try await schema(fresh) } catch {
                await fresh.close()
                throw error
            }
            await fresh.close()
        }
        return made
    }

    /// What the steps since the numbered binaries change in a schema: a database migrated to their newest compared
    /// with one migrated to this binary's newest.
    private func changedSinceLegacy(_ store: TestStore) async throws -> Set<String> {
        var before: [String: String] = [:]
        try await withEmptyDatabase(store) { location in
            try await migrate(location, upTo: Self.legacyNewest)
            let older = try await openAsIs(location)
            do { before = try await schema(older) } catch {
                await older.close()
                throw error
            }
            await older.close()
        }
        let after = try await freshSchema(store)
        return Set(Set(before.keys).union(after.keys).filter { before[$0] != after[$0] })
    }

    /// What `card-network` makes or changes, by the names `schema` gives: its tables and indexes, and on SQLite the
    /// two tables it adds columns to (their definitions are their SQL).
    private static func cardNetworkObjects(_ store: TestStore) -> Set<String> {
        switch store {
        case .sqlite:
            [
                "table cards", "table topups", "table card_network_customers", "table card_network_events",
                "index sqlite_autoindex_card_network_customers_1", "index sqlite_autoindex_card_network_events_1",
                "index cards_one_account", "index topups_card", "index topups_payment",
            ]
        case .postgres:
            [
                "relation card_network_customers", "relation card_network_customers_pkey", "relation card_network_events",
                "relation card_network_events_pkey", "relation cards_one_account", "relation topups_card", "relation topups_payment",
            ]
        }
    }

    /// Migrates the database at `location` up to `last`, its bookkeeping in names as this binary writes it.
    private func migrate(_ location: DatabaseLocation, upTo last: SchemaMigration) async throws {
        let database = try await openAsIs(location)
        do {
            switch database {
            case let sqlite as SQLiteDatabase:
                try SQLiteMigrations.migrate(sqlite.pool, upTo: last)
            case let postgres as SkiffServer.PostgresDatabase:
                try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger, upTo: last)
            default:
                throw TestFailure("a store of another kind: \(type(of: database))")
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    /// An empty database of `store`'s kind, removed afterwards; `body` gets its location.
    private func withEmptyDatabase(_ store: TestStore, _ body: (DatabaseLocation) async throws -> Void) async throws {
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-history-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await body(.sqlite(path: directory.appendingPathComponent("skiff.sqlite").path))
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in try await body(.postgres(url: url)) }
        }
    }

    /// A database of `store`'s kind as the binaries before one list left it after `last`: this binary's steps up to
    /// `last`, then the bookkeeping rewritten as they wrote it (SQLite: their identifiers in `grdb_migrations`;
    /// PostgreSQL: their numbers in `schema_migrations`, and no `schema_migration_names`). `body` gets its location.
    private func withLegacyDatabase(
        _ store: TestStore, through last: SchemaMigration, _ body: (DatabaseLocation) async throws -> Void
    ) async throws {
        let applied = Set(SchemaMigration.allCases.prefix { $0 != last } + [last])
        try await withEmptyDatabase(store) { location in
            let database = try await openAsIs(location)
            do {
                switch database {
                case let sqlite as SQLiteDatabase:
                    try SQLiteMigrations.migrate(sqlite.pool, upTo: last)
                    try await database.execute("DELETE FROM grdb_migrations")
                    for (identifier, migration) in SQLiteMigrations.legacyIdentifiers where applied.contains(migration) {
                        try await database.execute("INSERT INTO grdb_migrations (identifier) VALUES ('\(identifier)')")
                    }
                case let postgres as SkiffServer.PostgresDatabase:
                    try await PostgresMigrations.migrate(postgres.client, logger: TestStore.logger, upTo: last)
                    try await database.execute("DROP TABLE schema_migration_names")
                    try await database.execute("DELETE FROM schema_migrations")
                    for version in Set(applied.compactMap { PostgresMigrations.legacyVersions[$0] }).sorted() {
                        try await database.execute("INSERT INTO schema_migrations (version) VALUES (\(version))")
                    }
                default:
                    throw TestFailure("a store of another kind: \(type(of: database))")
                }
            } catch {
                await database.close()
                throw error
            }
            await database.close()
            try await body(location)
        }
    }

    /// The store at `location`, not migrated.
    private func openAsIs(_ location: DatabaseLocation) async throws -> any RepositoryStore {
        switch location {
        case .sqlite(let path):
            return try SQLiteDatabase(path: path, migrating: false)
        case .postgres(let url):
            return try await SkiffServer.PostgresDatabase.open(url: url, logger: TestStore.logger, migrating: false)
        }
    }

    /// Every object of the schema by kind and name, with its definition (PostgreSQL: a table's or an index's kind, a
    /// function's source as a hash); the bookkeeping left out.
    private func schema(_ store: any RepositoryStore) async throws -> [String: String] {
        let rows = try await store.strings(store is SQLiteDatabase ? """
            SELECT type || ' ' || name || char(9) || COALESCE(sql, '') FROM sqlite_master WHERE tbl_name != 'grdb_migrations'
            """ : """
            SELECT 'relation ' || c.relname || E'\\t' || c.relkind::TEXT FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relname NOT LIKE 'schema_migration%'
            UNION ALL
            SELECT 'function ' || p.oid::regprocedure::TEXT || E'\\t' || md5(p.prosrc) FROM pg_proc p
                JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
            UNION ALL
            SELECT 'trigger ' || t.tgname || E'\\t' || t.tgrelid::regclass::TEXT FROM pg_trigger t WHERE NOT t.tgisinternal
            """)
        return Dictionary(uniqueKeysWithValues: rows.map { row in
            let parts = row.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
    }

    /// The numbers PostgreSQL records in `schema_migrations`, for binaries from before the names.
    private func legacyVersions(_ store: any RepositoryStore) async throws -> [Int] {
        try await store.strings("SELECT version::TEXT FROM schema_migrations").compactMap { Int($0) }.sorted()
    }

    /// The names the store records: SQLite's `grdb_migrations`, PostgreSQL's `schema_migration_names`.
    private func recordedNames(_ store: any RepositoryStore) async throws -> Set<String> {
        Set(try await store.strings(store is SQLiteDatabase
            ? "SELECT identifier FROM grdb_migrations" : "SELECT name FROM schema_migration_names"))
    }

    /// A logger that keeps its lines in `lines`.
    private static func capturing(_ lines: NIOLockedValueBox<[String]>) -> Logger {
        Logger(label: "skiff-migration-tests") { _ in CapturingLogHandler(lines: lines) }
    }
}
