import Foundation
import SkiffCore

/// Sessions, looked up by the SHA-256 of their token.
protocol SessionRepository: Sendable {
    func create(_ session: SessionRecord) async throws
    func session(tokenHash: String) async throws -> SessionRecord?
    /// Records use of the session.
    func touch(tokenHash: String, at date: Date) async throws
    func revoke(tokenHash: String, at date: Date) async throws
    /// Locks the session at `date` unless it is locked already. With `unusedSince`, only if no use was written
    /// after it: an idle lock decided on an earlier read never undoes an unlock made meanwhile.
    func lock(tokenHash: String, at date: Date, unusedSince: Date?) async throws
    /// Lifts the lock and records use at `date`, so the idle time starts again.
    func unlock(tokenHash: String, at date: Date) async throws
    /// Sessions not revoked, not past `now` and used after `usedAfter`, on every instance (for `/metrics`).
    func activeCount(now: Date, usedAfter: Date) async throws -> Int
}

/// One-time codes.
protocol VerificationRepository: Sendable {
    /// The codes issued to `phone` for purposes that share `purpose`'s caps (`CodePurpose.sharingCaps`), those
    /// asked for from `address`, after `since`, and those of `country`'s window.
    func issueHistory(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date
    ) async throws -> CodeIssueHistory
    /// In one step, serialised per number, per address and per country code: reads the history of `record`'s number
    /// and purpose as `issueHistory` does and hands it to `refusal`; when that refuses, returns its answer and stores
    /// nothing. Otherwise stores `record`, asked for from `address` for a number of `country`'s code, ends every
    /// unused earlier code of the same number and purpose (they expire at the new code's creation), and returns nil.
    func create<Refusal: Sendable>(
        _ record: VerificationRecord, address: String, country: CountryCodeWindow, historySince since: Date,
        refusal: @escaping @Sendable (CodeIssueHistory) -> Refusal?
    ) async throws -> Refusal?
    func verification(id: String) async throws -> VerificationRecord?
    /// Checks a try at code `id` in one step, so that parallel guesses cannot pass the limits: `judge` reads the
    /// record (`CodeTry`) and an unusable one changes nothing; then `pause` sees when the wrong tries at any code
    /// of the same number after `failuresSince` were made (oldest first) and may pause the number; then a right
    /// try consumes the code, recording `consumedBy`, a replay changes nothing, and a wrong one (a replay miss
    /// too) counts, on the code and on its number.
    func attempt(
        id: String, at date: Date, failuresSince: Date, pause: @escaping @Sendable ([Date]) -> Date?,
        judge: @escaping @Sendable (VerificationRecord) -> CodeTry, consumedBy: String?
    ) async throws -> CodeAttempt
}

/// Failed sign-ins per number.
protocol LoginThrottleRepository: Sendable {
    /// In one step: when the number is paused at `date`, returns the end of the pause; otherwise counts the
    /// attempt as a failure (until `reset` clears it on success), lets `lockout` set the pause from the new
    /// count, and returns nil. Counting first means parallel guesses are all counted.
    func beginAttempt(
        phone: String, at date: Date, lockout: @escaping @Sendable (_ failures: Int) -> Date?
    ) async throws -> Date?
    func reset(phone: String) async throws
}
