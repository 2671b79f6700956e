import Foundation

/// Pauses password checks after repeated failures: 30 s after the fifth, doubling up to 15 min. Sign-in is
/// counted per number (anyone may try it), with a transfer's step-up (issue 25: one count of guesses, whichever door);
/// the unlock of a signed-in session per user, apart, so that strangers' failures on a number never pause its owner's
/// unlock.
struct LoginThrottle: Sendable {
    let repository: any LoginThrottleRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits

    /// What the failures are counted on.
    enum Subject: Sendable {
        /// Sign-in with this E.164 number, and the step-up of its user's sessions.
        case number(String)
        /// Unlocking a session of this user.
        case unlock(userID: String)

        /// The row the repository keeps (numbers start with `+`, so the two never meet).
        var key: String {
            switch self {
            case .number(let phone): phone
            case .unlock(let userID): "unlock:" + userID
            }
        }
    }

    /// Throws `tooManyAttempts` while the subject is paused; otherwise counts this attempt as failed until
    /// `recordSuccess` says otherwise.
    func beginAttempt(_ subject: Subject) async throws {
        let now = clock.now()
        let limits = limits
        let pausedUntil = try await repository.beginAttempt(phone: subject.key, at: now) { failures in
            guard failures >= limits.loginFailuresBeforeLockout else { return nil }
            let doublings = min(failures - limits.loginFailuresBeforeLockout, 20)
            let wait = min(limits.loginMaxLockout, limits.loginFirstLockout * pow(2, Double(doublings)))
            return now.addingTimeInterval(wait)
        }
        if let pausedUntil {
            throw Problem.tooManyAttempts(retryAfter: max(1, Int(pausedUntil.timeIntervalSince(now).rounded(.up))))
        }
    }

    func recordSuccess(_ subject: Subject) async throws {
        try await repository.reset(phone: subject.key)
    }
}
