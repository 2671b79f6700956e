import Foundation
import Logging
import ServiceLifecycle

/// Deletes, every `purgeInterval`, what no rule reads any more: codes (a name, a number and a bcrypt hash may sit
/// in a registration's) past their caps' windows and replay retention, old wrong-code tries and failure counts,
/// ended sessions and expired idempotency keys. Stops at graceful shutdown, before the store closes.
struct PurgeService: Service {
    let store: any RepositoryStore
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let logger: Logger

    /// Sessions are kept this long after they end, and failure counts this long after their last failure.
    static let grace: TimeInterval = 24 * 3600

    /// Purges every `purgeInterval` until the server shuts down; the sleep that shutdown cancels ends it without an
    /// error (an error would make `serve` exit 1 on a SIGTERM).
    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .seconds(limits.purgeInterval))
                } catch {
                    return
                }
                await purgeOnce()
            }
        }
    }

    /// One purge at the clock's time; a failure is logged and the next round tries again.
    @discardableResult
    func purgeOnce() async -> PurgeCounts? {
        do {
            let counts = try await store.purge(Self.cutoffs(at: clock.now(), limits: limits), batchSize: limits.purgeBatchSize)
            logger.info("purged", metadata: [
                "verifications": "\(counts.verifications)", "codeFailures": "\(counts.codeFailures)",
                "loginThrottle": "\(counts.loginThrottle)", "sessions": "\(counts.sessions)",
                "idempotencyKeys": "\(counts.idempotencyKeys)", "stepUps": "\(counts.stepUps)",
                "rateEvents": "\(counts.rateEvents)", "events": "\(counts.events)",
            ])
            return counts
        } catch {
            logger.error("purge failed", metadata: ["error": "\(type(of: error))"])
            return nil
        }
    }

    /// Where every rule that reads a kind of row stops reading it, at `now`.
    static func cutoffs(at now: Date, limits: SkiffServerLimits) -> PurgeCutoffs {
        let codeWindows = OneTimeCodeService.day
        return PurgeCutoffs(
            now: now,
            verifications: now.addingTimeInterval(-max(codeWindows, limits.idempotencyRetention)),
            codeFailures: now.addingTimeInterval(-codeWindows),
            loginThrottle: now.addingTimeInterval(-grace),
            sessions: now.addingTimeInterval(-grace),
            idempotencyKeys: now.addingTimeInterval(-limits.idempotencyRetention),
            stepUpsAndRateEvents: now.addingTimeInterval(-max(limits.stepUpLifetime, limits.recipientLookupWindow)),
            events: now.addingTimeInterval(-limits.eventRetention)
        )
    }
}
