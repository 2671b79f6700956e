import Foundation
import Logging
import SkiffCore

/// Issues and checks six-digit codes: CSPRNG digits, stored as a keyed hash, short-lived, single use,
/// attempt-limited, ended by the next code of the same number and purpose, and capped: one per number per resend
/// interval, so many per number per hour and per day (anonymous purposes and signed-in ones each have their own,
/// `CodePurpose.sharingCaps`), so many per client address per hour, so many per country code per hour, and so many
/// wrong tries per number per day across all its codes.
struct OneTimeCodeService: Sendable {
    let repository: any VerificationRepository
    let sender: any CodeSender
    let key: ServerKey
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let logger: Logger

    /// What a caller gets back: where to send the code, and until when it is good.
    struct Challenge: Sendable {
        var verificationID: String
        var expiresAt: Date
    }

    /// Why a code was not issued, and when one may be.
    enum Refusal: Sendable, Equatable {
        /// A code went to the number less than the resend interval ago.
        case resendTooSoon(until: Date)
        /// The number's hourly or daily cap, or the client address's or the country code's hourly cap, is reached.
        case capReached(until: Date)

        var until: Date {
            switch self {
            case .resendTooSoon(let until), .capReached(let until): until
            }
        }

        /// The 429 to answer at `now`, with `Retry-After` until a code may be issued.
        func problem(at now: Date) -> Problem {
            let seconds = Problem.secondsUntil(until, from: now)
            return switch self {
            case .resendTooSoon: .codeRateLimited(retryAfter: seconds)
            case .capReached: .codeLimitReached(retryAfter: seconds)
            }
        }
    }

    /// Throws the 429 that `issue` would answer now, without storing anything: lets a caller refuse before it
    /// does costly work (hashing a password) for a code it could not get.
    func checkLimits(phone: String, purpose: CodePurpose, countryCode: String, address: String) async throws {
        let now = clock.now()
        let history = try await repository.issueHistory(
            phone: phone, purpose: purpose, address: address, country: countryWindow(countryCode, at: now),
            since: now.addingTimeInterval(-Self.day)
        )
        if let refusal = refusal(for: history, at: now) { throw refusal.problem(at: now) }
    }

    /// The codes of `countryCode` (digits only) that its hourly cap reads at `now`.
    private func countryWindow(_ countryCode: String, at now: Date) -> CountryCodeWindow {
        CountryCodeWindow(countryCode: countryCode, since: now.addingTimeInterval(-Self.hour), newest: limits.codesPerCountryPerHour)
    }

    /// Creates a code for `phone` (E.164, of country code `countryCode`), asked for from client `address`, and sends
    /// it, unless `send` is false (a reset asked for an unknown number: the answer looks the same, no message goes
    /// out, and it counts as one that did). Earlier unused codes of the number for `purpose` end.
    func issue(
        phone: String, countryCode: String, purpose: CodePurpose, userID: String?, address: String, subject: String? = nil,
        payload: Data? = nil, send: Bool = true
    ) async throws -> Challenge {
        let now = clock.now()
        let id = UUID().uuidString.lowercased()
        let code = Self.generateCode()
        let record = VerificationRecord(
            id: id, phone: phone, purpose: purpose, codeHash: hash(code: code, verificationID: id), userID: userID,
            subject: subject, payload: payload, createdAt: now, expiresAt: now.addingTimeInterval(limits.codeLifetime),
            attempts: 0, consumedAt: nil
        )
        let service = self
        if let refusal = try await repository.create(
            record, address: address, country: countryWindow(countryCode, at: now), historySince: now.addingTimeInterval(-Self.day),
            refusal: { history in service.refusal(for: history, at: now) }
        ) {
            logger.info("one-time code refused", metadata: ["purpose": "\(purpose.rawValue)"])
            throw refusal.problem(at: now)
        }
        if send {
            try await sender.send(OutgoingCode(to: phone, code: code, purpose: purpose, sentAt: now))
        }
        logger.info("one-time code issued", metadata: ["purpose": "\(purpose.rawValue)"])
        return Challenge(verificationID: id, expiresAt: record.expiresAt)
    }

    /// The latest refusal among the rules a new code at `now` would break, or nil.
    func refusal(for history: CodeIssueHistory, at now: Date) -> Refusal? {
        var refusals: [Refusal] = []
        if let last = history.phone.last, last > now.addingTimeInterval(-limits.codeResendInterval) {
            refusals.append(.resendTooSoon(until: last.addingTimeInterval(limits.codeResendInterval)))
        }
        let caps = [
            Self.capEnd(history.phone, limit: limits.codesPerNumberPerHour, window: Self.hour, at: now),
            Self.capEnd(history.phone, limit: limits.codesPerNumberPerDay, window: Self.day, at: now),
            Self.capEnd(history.address, limit: limits.codesPerAddressPerHour, window: Self.hour, at: now),
            Self.capEnd(history.country, limit: limits.codesPerCountryPerHour, window: Self.hour, at: now),
        ]
        refusals += caps.compactMap { $0.map(Refusal.capReached(until:)) }
        return refusals.max { $0.until < $1.until }
    }

    /// When `limit` events within `window` before `now` no longer holds: the time the oldest event that must go
    /// leaves the window. Nil while fewer than `limit` events are in it.
    static func capEnd(_ events: [Date], limit: Int, window: TimeInterval, at now: Date) -> Date? {
        let counted = events.filter { $0 > now.addingTimeInterval(-window) }
        guard counted.count >= limit else { return nil }
        return counted[counted.count - limit].addingTimeInterval(window)
    }

    static let hour: TimeInterval = 3600
    static let day: TimeInterval = 24 * 3600

    /// A code `consume` accepted: just now, or earlier by the same request, sent again (`replayed`).
    struct Accepted: Sendable {
        var record: VerificationRecord
        var replayed: Bool
    }

    /// Checks `code` for verification `id` and consumes it. Unknown, expired, used or exhausted codes all
    /// answer `codeExpired`; a wrong code counts a try. `matches` lets the caller refuse a code issued for
    /// something else (another user, another card) with the same answer as an unknown one; `alsoRequired`
    /// makes the try wrong however right the code (a wrong last four digits of a card), so it counts too.
    ///
    /// With `replayKey` (the request's Idempotency-Key), the code is consumed bound to the whole request: a keyed
    /// hash of the key, the verification id, the code and `replayBinding` (the rest of the request, such as the
    /// new password's keyed hash). The same request sent again within the idempotency retention (its answer was
    /// lost) is accepted again as `replayed`, so the caller answers it as it did the first time, finishing
    /// whatever the first try did not get to. Any other try at a used code with a key is a replay miss: it counts
    /// as a wrong try, on the code and on its number, answers `codeExpired`, and once the code's tries are spent
    /// no replay is accepted. A password reset ends the replays of its user's earlier codes
    /// (`AccountRepository.resetPassword`).
    @discardableResult
    func consume(
        id: String, code: String, purpose: CodePurpose, matches: @escaping @Sendable (VerificationRecord) -> Bool = { _ in true },
        alsoRequired: Bool = true, replayKey: String? = nil, replayBinding: String = ""
    ) async throws -> Accepted {
        let now = clock.now()
        let maxAttempts = limits.codeMaxAttempts
        let retention = limits.idempotencyRetention
        let codeHash = hash(code: code, verificationID: id)
        let consumedBy = replayKey.map {
            Self.replayHash(serverKey: key, replayKey: $0, verificationID: id, code: code, binding: replayBinding)
        }
        let wrongTriesPerDay = limits.wrongCodesPerNumberPerDay
        let outcome = try await repository.attempt(
            id: id, at: now, failuresSince: now.addingTimeInterval(-Self.day),
            pause: { failures in Self.capEnd(failures, limit: wrongTriesPerDay, window: Self.day, at: now) },
            judge: { record in
                guard record.purpose == purpose, matches(record), record.attempts < maxAttempts else { return .unusable }
                if let consumedAt = record.consumedAt {
                    guard let consumedBy, let recordedBy = record.consumedBy,
                          now < consumedAt.addingTimeInterval(retention)
                    else { return .unusable }
                    return constantTimeEquals(consumedBy, recordedBy) ? .replay : .wrong
                }
                guard now < record.expiresAt else { return .unusable }
                return constantTimeEquals(codeHash, record.codeHash) && alsoRequired ? .right : .wrong
            },
            consumedBy: consumedBy
        )
        switch outcome {
        case .accepted(let record):
            return Accepted(record: record, replayed: false)
        case .replayed(let record):
            logger.info("one-time code request replayed", metadata: ["purpose": "\(purpose.rawValue)"])
            return Accepted(record: record, replayed: true)
        case .replayMissed:
            logger.info("one-time code replay refused", metadata: ["purpose": "\(purpose.rawValue)"])
            throw Problem.codeExpired
        case .unusable:
            throw Problem.codeExpired
        case .paused(let until):
            logger.info("one-time code tries paused", metadata: ["purpose": "\(purpose.rawValue)"])
            throw Problem.codeTriesPaused(retryAfter: Problem.secondsUntil(until, from: now))
        case .wrong(let attempts):
            let left = maxAttempts - attempts
            logger.info("wrong one-time code", metadata: ["purpose": "\(purpose.rawValue)", "attemptsLeft": "\(max(0, left))"])
            if left <= 0 { throw Problem.codeExpired }
            throw Problem.invalidCode(attemptsLeft: left)
        }
    }

    /// What a consumed code records of the request that consumed it: a keyed hash over every part, each with its
    /// length, so no two different requests give the same input.
    static func replayHash(
        serverKey: ServerKey, replayKey: String, verificationID: String, code: String, binding: String
    ) -> String {
        let parts = [replayKey, verificationID, code, binding]
        return serverKey.mac("code-replay", parts.map { "\($0.utf8.count):\($0)" }.joined(separator: ";"))
    }

    func hash(code: String, verificationID: String) -> String {
        key.mac("one-time-code", verificationID + ":" + code)
    }

    /// Six digits from the system CSPRNG.
    static func generateCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = Int.random(in: 0..<1_000_000, using: &generator)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}

/// Compares two strings in time that depends only on their lengths.
func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    let left = Array(lhs.utf8)
    let right = Array(rhs.utf8)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
}
