import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers
import Testing
@testable import SkiffServer

@Suite("Purge service", .timeLimit(.minutes(3)))
struct PurgeServiceTests {
    @Test("The purge runs on its schedule at the clock's time, logs its counts, and stops when cancelled")
    func runsOnSchedule() async throws {
        try await SQLiteDatabase.withTemporary { store in
            let clock = TestClock()
            let old = clock.now().addingTimeInterval(-2 * 86_400)
            _ = try await store.repositories.idempotency.begin(
                scope: "anonymous", key: "old", requestHash: "hash", at: old, expiredBefore: old, abandonedBefore: old
            )
            _ = try await store.repositories.idempotency.begin(
                scope: "anonymous", key: "live", requestHash: "hash", at: clock.now(), expiredBefore: old, abandonedBefore: old
            )
            let lines = NIOLockedValueBox<[String]>([])
            let logger = Logger(label: "purge-test") { _ in CapturingLogHandler(lines: lines) }
            var limits = SkiffServerLimits()
            limits.purgeInterval = 0.01
            let service = PurgeService(store: store, clock: clock, limits: limits, logger: logger)

            let running = Task { await service.run() }
            // Waits for two rounds, however slow the machine; nothing here measures speed.
            while lines.withLockedValue({ $0.filter { $0.contains("purged") }.count }) < 2 {
                try await Task.sleep(for: .milliseconds(10))
            }
            running.cancel()
            // Ends, without an error, instead of running on (a test that hangs here has found it running on).
            await running.value

            let purged = lines.withLockedValue { $0 }.filter { $0.contains("purged") }
            #expect(purged.first?.contains("\"idempotencyKeys\": 1") == true, "\(purged)")
            #expect(purged.dropFirst().allSatisfy { $0.contains("\"idempotencyKeys\": 0") }, "\(purged)")
            let keys = try await store.metered.read { db in try String.fetchAll(db, sql: "SELECT key FROM idempotency_keys") }
            #expect(keys == ["live"])
        }
    }
}
