import Foundation
import GRDB

extension SQLiteDatabase {
    func purge(_ cutoffs: PurgeCutoffs, batchSize: Int) async throws -> PurgeCounts {
        var counts = PurgeCounts()
        for rule in PurgeRule.all(cutoffs) {
            var deleted: Int
            repeat {
                deleted = try await metered.write { db in
                    try db.execute(
                        sql: """
                            DELETE FROM \(rule.table) WHERE rowid IN (
                                SELECT rowid FROM \(rule.table) WHERE \(rule.condition) LIMIT ?
                            )
                            """,
                        arguments: StatementArguments(rule.arguments) + [batchSize]
                    )
                    return db.changesCount
                }
                counts[keyPath: rule.count] += deleted
            } while deleted == batchSize
        }
        return counts
    }
}
