import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// A token bucket per client address (`ClientAddress.current`: an IPv6 client's /64) over every `/v1/auth/`
/// request, checked before the body is read: a full bucket holds `authRequestBurst` requests and gains one every
/// `authRequestRefillInterval`. It lives in this instance's memory (docs/decisions/0049-auth-token-bucket-per-address.md), so N instances behind a
/// balancer allow up to N times the rate.
///
/// Buckets are kept in two generations of at most `capacity / 2` addresses each: an address's bucket goes into the
/// current one; when that is full it becomes the previous one, and the addresses of the old previous one, not seen
/// for a whole generation, are forgotten (a forgotten bucket starts full again). However many addresses come and
/// go, memory holds at most `capacity` buckets and each request costs O(1) (amortised: a generation is dropped
/// whole once per `capacity / 2` new addresses).
final class AuthRequestBuckets: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    private struct Generations {
        var current: [String: Bucket] = [:]
        var previous: [String: Bucket] = [:]
    }

    /// The addresses whose buckets are remembered by default.
    static let defaultCapacity = 20_000

    let burst: Int
    let refillInterval: TimeInterval
    let capacity: Int
    let clock: any ServerClock
    private let generations = NIOLockedValueBox(Generations())

    init(limits: SkiffServerLimits, clock: any ServerClock, capacity: Int = AuthRequestBuckets.defaultCapacity) {
        burst = limits.authRequestBurst
        refillInterval = limits.authRequestRefillInterval
        self.capacity = max(2, capacity)
        self.clock = clock
    }

    /// How many addresses have a bucket in memory now.
    var trackedAddresses: Int {
        generations.withLockedValue { $0.current.count + $0.previous.count }
    }

    /// Takes a token for `address`; when none is left, returns the seconds until there is one.
    func take(address: String) -> Int? {
        let now = clock.now()
        let generationSize = capacity / 2
        return generations.withLockedValue { generations in
            let stored = generations.current[address] ?? generations.previous.removeValue(forKey: address)
            let tokens = stored.map { refilled($0, at: now) } ?? Double(burst)
            if generations.current[address] == nil, generations.current.count >= generationSize {
                generations.previous = generations.current
                generations.current = [:]
            }
            guard tokens >= 1 else {
                generations.current[address] = Bucket(tokens: tokens, updatedAt: now)
                return max(1, Int(((1 - tokens) * refillInterval).rounded(.up)))
            }
            generations.current[address] = Bucket(tokens: tokens - 1, updatedAt: now)
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, at now: Date) -> Double {
        let gained = max(0, now.timeIntervalSince(bucket.updatedAt)) / refillInterval
        return min(Double(burst), bucket.tokens + gained)
    }
}

/// Answers 429 with `Retry-After` to a `/v1/auth/` request whose client address has no token left, before any
/// work is done for it. Runs after `ClientAddressMiddleware`.
struct AuthRequestLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let buckets: AuthRequestBuckets

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/v1/auth/"), let seconds = buckets.take(address: ClientAddress.current) {
            throw Problem.authRequestsLimited(retryAfter: seconds)
        }
        return try await next(request, context)
    }
}
