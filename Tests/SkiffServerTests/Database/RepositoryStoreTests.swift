import Foundation
import GRDB
import Testing
@testable import SkiffServer

@Suite("Opening a store: migrations applied, or required")
struct RepositoryStoreTests {
    /// A database of `store`'s kind migrated to all but the newest migration; `body` gets its location and the
    /// newest migration's name, as `pendingMigrations` says it on both stores.
    private func withDatabaseOneBehind(_ store: TestStore, _ body: (DatabaseLocation, String) async throws -> Void) async throws {
        let oneBehind = SchemaMigration.allCases[SchemaMigration.allCases.count - 2]
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-behind-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("skiff.sqlite").path
            let older = try SQLiteDatabase(path: path, migrating: false)
            try SQLiteMigrations.migrate(older.pool, upTo: oneBehind)
            try await body(.sqlite(path: path), SchemaMigration.newest.name)
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                let older = try await PostgresDatabase.open(url: url, logger: TestStore.logger, migrating: false)
                try await PostgresMigrations.migrate(older.client, logger: TestStore.logger, upTo: oneBehind)
                await older.close()
                try await body(.postgres(url: url), SchemaMigration.newest.name)
            }
        }
    }

    @Test("A database that lacks a migration is refused when migrations are required, naming it and what to run; applying brings it current", arguments: TestStore.allCases)
    func requiredMigrations(store: TestStore) async throws {
        try await withDatabaseOneBehind(store) { location, newest in
            let refusal = await #expect(throws: PendingMigrationsError.self) {
                try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent)
            }
            #expect(refusal?.pending == [newest])
            #expect(refusal?.description.contains("lacks 1 migration (\(newest))") == true)
            #expect(refusal?.description.contains("skiff-server migrate") == true)

            let migrated = try await openRepositoryStore(location, logger: TestStore.logger, migrations: .apply)
            #expect(try await migrated.pendingMigrations() == [])
            await migrated.close()
            let current = try await openRepositoryStore(location, logger: TestStore.logger, migrations: .requireCurrent)
            #expect(try await current.pendingMigrations() == [])
            await current.close()
        }
    }

    @Test("An empty database lacks every migration, oldest first, by the same names on both stores (less those with nothing to do on the store)", arguments: TestStore.allCases)
    func emptyDatabase(store: TestStore) async throws {
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-empty-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let empty = try SQLiteDatabase(path: directory.appendingPathComponent("skiff.sqlite").path, migrating: false)
            // `unread-lock-order` has nothing to do on SQLite.
            #expect(try await empty.pendingMigrations() == SQLiteMigrations.migrator.migrations.filter { $0 != "unread-lock-order" })
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                let empty = try await PostgresDatabase.open(url: url, logger: TestStore.logger, migrating: false)
                let pending = try await empty.pendingMigrations()
                await empty.close()
                #expect(pending == SchemaMigration.allCases.map(\.name))
            }
        }
    }
}
