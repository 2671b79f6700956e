import Foundation
import Logging
import SkiffCore

/// Issues and checks six-digit codes: CSPRNG digits, stored as a keyed hash, short-lived, single use,
/// attempt-limited, and at most one per number per resend interval.
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

    /// Creates a code for `phone` and sends it, unless `send` is false (a reset asked for an unknown number:
    /// the answer looks the same, no message goes out).
    func issue(
        phone: String, purpose: CodePurpose, userID: String?, subject: String? = nil, payload: Data? = nil,
        send: Bool = true
    ) async throws -> Challenge {
        let now = clock.now()
        let id = UUID().uuidString.lowercased()
        let code = Self.generateCode()
        let record = VerificationRecord(
            id: id, phone: phone, purpose: purpose, codeHash: hash(code: code, verificationID: id), userID: userID,
            subject: subject, payload: payload, createdAt: now, expiresAt: now.addingTimeInterval(limits.codeLifetime),
            attempts: 0, consumedAt: nil
        )
        if let last = try await repository.create(record, unlessSentAfter: now.addingTimeInterval(-limits.codeResendInterval)) {
            let wait = last.addingTimeInterval(limits.codeResendInterval).timeIntervalSince(now)
            throw Problem.codeRateLimited(retryAfter: max(1, Int(wait.rounded(.up))))
        }
        if send {
            try await sender.send(OutgoingCode(to: phone, code: code, purpose: purpose, sentAt: now))
        }
        logger.info("one-time code issued", metadata: ["verification": "\(id)", "purpose": "\(purpose.rawValue)"])
        return Challenge(verificationID: id, expiresAt: record.expiresAt)
    }

    /// Checks `code` for verification `id` and consumes it. Unknown, expired, used or exhausted codes all
    /// answer `codeExpired`; a wrong code counts a try. `matches` lets the caller refuse a code issued for
    /// something else (another user, another card) with the same answer as an unknown one; `alsoRequired`
    /// makes the try wrong however right the code (a wrong last four digits of a card), so it counts too.
    func consume(
        id: String, code: String, purpose: CodePurpose, matches: @escaping @Sendable (VerificationRecord) -> Bool = { _ in true },
        alsoRequired: Bool = true
    ) async throws -> VerificationRecord {
        let now = clock.now()
        let maxAttempts = limits.codeMaxAttempts
        let codeHash = hash(code: code, verificationID: id)
        let outcome = try await repository.attempt(
            id: id, at: now,
            isUsable: { record in
                record.purpose == purpose && matches(record) && record.consumedAt == nil
                    && record.attempts < maxAttempts && now < record.expiresAt
            },
            isRight: { record in constantTimeEquals(codeHash, record.codeHash) && alsoRequired }
        )
        switch outcome {
        case .accepted(let record):
            return record
        case .unusable:
            throw Problem.codeExpired
        case .wrong(let attempts):
            let left = maxAttempts - attempts
            logger.info("wrong one-time code", metadata: ["verification": "\(id)", "attemptsLeft": "\(max(0, left))"])
            if left <= 0 { throw Problem.codeExpired }
            throw Problem.invalidCode(attemptsLeft: left)
        }
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
