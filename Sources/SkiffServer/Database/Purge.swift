import Foundation

/// What a purge may delete: the rows no rule reads any more. Each date is the moment before which a row of its
/// kind is past every rule that reads it (`PurgeService.cutoffs` sets them from the limits).
struct PurgeCutoffs: Sendable, Equatable {
    /// The purge's own time: a login pause running at it is kept.
    var now: Date
    /// Verifications created, expired and (if at all) consumed before this: past the code caps' windows, the
    /// code's life and its replay's retention.
    var verifications: Date
    /// Wrong code tries before this: past the wrong-tries window.
    var codeFailures: Date
    /// Sign-in and unlock failure counts last added to before this, and not paused at `now`.
    var loginThrottle: Date
    /// Sessions that expired or were revoked before this.
    var sessions: Date
    /// Idempotency keys first used before this: past the retention.
    var idempotencyKeys: Date
    /// Step-up proofs that expired before this, and counted events (recipient lookups) made before it.
    var stepUpsAndRateEvents: Date
    /// Live events written before this: past the catch-up a reconnecting stream may ask for.
    var events: Date
}

/// How many rows a purge deleted, per table.
struct PurgeCounts: Sendable, Equatable {
    var verifications = 0
    var codeFailures = 0
    var loginThrottle = 0
    var sessions = 0
    var idempotencyKeys = 0
    var stepUps = 0
    var rateEvents = 0
    var events = 0

    var total: Int {
        verifications + codeFailures + loginThrottle + sessions + idempotencyKeys + stepUps + rateEvents + events
    }
}

/// One table's share of a purge: which rows go, and where the count goes.
struct PurgeRule: Sendable {
    var table: String
    /// A condition on the table's rows; `?` placeholders take `arguments`, in order.
    var condition: String
    var arguments: [Int64]
    var count: WritableKeyPath<PurgeCounts, Int> & Sendable

    /// The rules for `cutoffs`, the same for every store.
    static func all(_ cutoffs: PurgeCutoffs) -> [PurgeRule] {
        let verifications = cutoffs.verifications.millisecondsSince1970
        let throttle = cutoffs.loginThrottle.millisecondsSince1970
        let sessions = cutoffs.sessions.millisecondsSince1970
        return [
            PurgeRule(
                table: "verifications",
                condition: "created_at < ? AND expires_at < ? AND (consumed_at IS NULL OR consumed_at < ?)",
                arguments: [verifications, verifications, verifications], count: \.verifications
            ),
            PurgeRule(
                table: "code_failures", condition: "failed_at < ?",
                arguments: [cutoffs.codeFailures.millisecondsSince1970], count: \.codeFailures
            ),
            PurgeRule(
                table: "login_throttle",
                condition: "(locked_until IS NULL OR locked_until < ?) AND (last_failed_at IS NULL OR last_failed_at < ?)",
                arguments: [cutoffs.now.millisecondsSince1970, throttle], count: \.loginThrottle
            ),
            PurgeRule(
                table: "sessions", condition: "(expires_at < ? OR revoked_at < ?)",
                arguments: [sessions, sessions], count: \.sessions
            ),
            PurgeRule(
                table: "idempotency_keys", condition: "created_at < ?",
                arguments: [cutoffs.idempotencyKeys.millisecondsSince1970], count: \.idempotencyKeys
            ),
            PurgeRule(
                table: "step_ups", condition: "expires_at < ?",
                arguments: [cutoffs.stepUpsAndRateEvents.millisecondsSince1970], count: \.stepUps
            ),
            PurgeRule(
                table: "rate_events", condition: "at < ?",
                arguments: [cutoffs.stepUpsAndRateEvents.millisecondsSince1970], count: \.rateEvents
            ),
            PurgeRule(
                table: "events", condition: "created_at < ?",
                arguments: [cutoffs.events.millisecondsSince1970], count: \.events
            ),
        ]
    }
}
