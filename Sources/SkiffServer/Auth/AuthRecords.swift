import Foundation
import SkiffCore

/// A session; the token itself is never stored, only its SHA-256.
struct SessionRecord: Sendable, Equatable {
    var tokenHash: String
    var userID: String
    var createdAt: Date
    var lastUsedAt: Date
    var expiresAt: Date
    var revokedAt: Date?
    /// Locked (by its owner's app, or by the server after `SkiffServerLimits.sessionLockAfter` unused): only
    /// unlock, lock and logout are served until unlocked.
    var lockedAt: Date? = nil
}

/// A one-time code as stored: its keyed hash, never the code.
struct VerificationRecord: Sendable, Equatable {
    var id: String
    /// The E.164 number the code went to.
    var phone: String
    var purpose: CodePurpose
    var codeHash: String
    /// The account the code acts on; nil for a registration, or a reset asked for an unknown number.
    var userID: String?
    /// The card a card-activation code is for; the top-up a top-up code confirms.
    var subject: String?
    /// Registration details (name, password hash) kept until the code is confirmed.
    var payload: Data?
    var createdAt: Date
    var expiresAt: Date
    var attempts: Int
    var consumedAt: Date?
    /// The keyed hash of the whole request that consumed the code, Idempotency-Key included
    /// (`OneTimeCodeService.replayHash`): that request sent again (its answer was lost) is answered again instead
    /// of being refused as a used code. Nil when it carried no key, or once a password reset ended its replay.
    var consumedBy: String? = nil
}

/// How the caller reads one try at a stored code (`VerificationRepository.attempt`).
enum CodeTry: Sendable, Equatable {
    /// Used, expired, exhausted, for something else, or a used code tried without an Idempotency-Key.
    case unusable
    /// The right code for an unused code: consume it.
    case right
    /// A wrong code, or a replay of a used code that is not the request that used it: count it.
    case wrong
    /// The very request that consumed the code, sent again.
    case replay
}

/// The outcome of one try at a one-time code.
enum CodeAttempt: Sendable, Equatable {
    /// Right: the code is now used.
    case accepted(VerificationRecord)
    /// Wrong: this many wrong tries have been made so far.
    case wrong(attempts: Int)
    /// Unknown, used, expired, exhausted, or for something else.
    case unusable
    /// The request that consumed the code, sent again: nothing changes.
    case replayed(VerificationRecord)
    /// A try at a used code that is not the request that used it: counted as a wrong try.
    case replayMissed(attempts: Int)
    /// Not checked: the code's number has had too many wrong tries lately; tries resume at this date.
    case paused(until: Date)
}

extension CodePurpose {
    /// The purposes whose codes count against the same caps per number as this one's. Anyone who knows a number
    /// can ask for a registration or reset code; only its signed-in owner for a card activation, so strangers
    /// using up the first can never close the second.
    var sharingCaps: [CodePurpose] {
        switch self {
        case .registration, .passwordReset: [.registration, .passwordReset]
        case .cardActivation: [.cardActivation]
        }
    }

    /// Where wrong tries at this purpose's codes to `phone` count toward the number's daily cap on wrong tries
    /// (`code_failures.phone`): the number itself for the codes anyone can ask for, the number marked as its signed-in
    /// owner's for theirs. A stranger who knows only the number can use up the first, never the owner's
    /// (docs/decisions/0201-strangers-counted-apart.md).
    func failureScope(phone: String) -> String {
        sharingCaps == [.cardActivation] ? phone + " signed-in" : phone
    }
}

/// When codes were issued lately, for the caps per number, per client address and per country code; oldest first.
struct CodeIssueHistory: Sendable, Equatable {
    /// Codes sent to the number, for the purposes that share the caps of the one asked for.
    var phone: [Date]
    /// Codes asked for from the client address, whatever the number.
    var address: [Date]
    /// The newest codes sent to numbers of the country code (`CountryCodeWindow`).
    var country: [Date] = []
}

/// Which codes of one country code an issue history holds: the newest `newest` issued after `since`, all that
/// the country's cap needs to read however many texts the country gets.
struct CountryCodeWindow: Sendable, Equatable {
    /// Digits only: `1`, `44`.
    var countryCode: String
    var since: Date
    var newest: Int
}

/// Consecutive failed sign-ins on one number.
struct LoginThrottleRecord: Sendable, Equatable {
    var phone: String
    var failures: Int
    var lockedUntil: Date?
}
