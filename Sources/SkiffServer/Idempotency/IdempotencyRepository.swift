import Foundation
import SkiffCore

/// Responses kept per (caller, Idempotency-Key).
protocol IdempotencyRepository: Sendable {
    /// Looks the key up and reserves it when new. A record older than `expiredBefore`, or a reservation older
    /// than `abandonedBefore` (its server stopped mid-request), counts as new.
    func begin(
        scope: String, key: String, requestHash: String, at date: Date, expiredBefore: Date, abandonedBefore: Date
    ) async throws -> IdempotencyBegin
    func complete(scope: String, key: String, response: StoredResponse) async throws
    /// Releases a reservation whose request failed, so the key can be used again.
    func abandon(scope: String, key: String) async throws
}
