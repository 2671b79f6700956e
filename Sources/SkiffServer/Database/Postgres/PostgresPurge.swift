import Foundation
import PostgresNIO

extension PostgresDatabase {
    func purge(_ cutoffs: PurgeCutoffs, batchSize: Int) async throws -> PurgeCounts {
        var counts = PurgeCounts()
        for rule in PurgeRule.all(cutoffs) {
            // The rule's `?` placeholders become $1, $2…; the batch size is the last one.
            var parts = rule.condition.split(separator: "?", omittingEmptySubsequences: false).map(String.init)
            let last = parts.removeLast()
            let condition = parts.enumerated().map { index, part in part + "$\(index + 1)" }.joined() + last
            var bindings = PostgresBindings()
            for argument in rule.arguments { bindings.append(argument) }
            bindings.append(batchSize)
            let query = PostgresQuery(
                unsafeSQL: """
                    WITH deleted AS (
                        DELETE FROM \(rule.table) WHERE ctid IN (
                            SELECT ctid FROM \(rule.table) WHERE \(condition) LIMIT $\(rule.arguments.count + 1)
                        )
                        RETURNING 1
                    )
                    SELECT COUNT(*) FROM deleted
                    """,
                binds: bindings
            )
            var deleted: Int
            repeat {
                deleted = 0
                for try await count in try await client.query(query, logger: logger).decode(Int64.self) {
                    deleted = Int(count)
                }
                counts[keyPath: rule.count] += deleted
            } while deleted == batchSize
        }
        return counts
    }
}
