import Benchmark
import Foundation
import Logging
import SkiffServer

/// The SQLite file the benchmarks read: `SKIFF_BENCH_DATABASE`, or one under the temporary folder, seeded once with
/// 1,000,000 transactions for one user (about a minute) and kept for later runs.
func benchmarkStore() async throws -> TransactionPageReader {
    let path = ProcessInfo.processInfo.environment["SKIFF_BENCH_DATABASE"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("skiff-bench-1m.sqlite").path
    let phone = "2025550177"
    let configuration = SkiffServerConfiguration(
        database: .sqlite(path: path), smsOutboxPath: path + ".outbox.jsonl",
        logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    if !FileManager.default.fileExists(atPath: path) {
        _ = try await SkiffServerSeeder.seed(
            configuration, countryCode: "+1", phoneNumber: phone, fullName: "Load Test", password: "load-test-pass",
            transactions: 1_000_000
        )
    }
    guard let reader = try await TransactionPageReader.open(configuration.database, phone: "+1" + phone, logger: configuration.logger)
    else { fatalError("\(path) holds no user +1\(phone); remove it to seed it again") }
    return reader
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))

    let queries: [(String, String?)] = [
        ("first page", nil), ("search with no match", "zzqxj"), ("search for one row", "opening"),
        ("search for a common word", "coffee"), ("search of two characters", "zq"),
    ]
    for (name, query) in queries {
        Benchmark("Repository, 1,000,000 transactions (SQLite): \(name)") { benchmark in
            let reader = try await benchmarkStore()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try await reader.firstPage(query: query, limit: 51))
            }
            benchmark.stopMeasurement()
            await reader.close()
        }
    }
}
