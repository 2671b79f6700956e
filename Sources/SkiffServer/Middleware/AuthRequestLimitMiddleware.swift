import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// A token bucket per client address over every `/v1/auth/` request, checked before the body is read: a full
/// bucket holds `authRequestBurst` requests and gains one every `authRequestRefillInterval`. It lives in this
/// instance's memory (see DECISIONS.md), so N instances behind a balancer allow up to N times the rate.
final class AuthRequestBuckets: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    let capacity: Int
    let refillInterval: TimeInterval
    let clock: any ServerClock
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])
    /// Past this many addresses, buckets that have refilled are forgotten.
    static let pruneThreshold = 10_000

    init(limits: SkiffServerLimits, clock: any ServerClock) {
        capacity = limits.authRequestBurst
        refillInterval = limits.authRequestRefillInterval
        self.clock = clock
    }

    /// Takes a token for `address`; when none is left, returns the seconds until there is one.
    func take(address: String) -> Int? {
        let now = clock.now()
        return buckets.withLockedValue { buckets in
            if buckets.count > Self.pruneThreshold {
                buckets = buckets.filter { refilled($0.value, at: now) < Double(capacity) }
            }
            let tokens = buckets[address].map { refilled($0, at: now) } ?? Double(capacity)
            guard tokens >= 1 else {
                buckets[address] = Bucket(tokens: tokens, updatedAt: now)
                return max(1, Int(((1 - tokens) * refillInterval).rounded(.up)))
            }
            buckets[address] = Bucket(tokens: tokens - 1, updatedAt: now)
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, at now: Date) -> Double {
        let gained = max(0, now.timeIntervalSince(bucket.updatedAt)) / refillInterval
        return min(Double(capacity), bucket.tokens + gained)
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
