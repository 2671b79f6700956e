import Foundation

/// Pauses sign-in on a number after repeated failures: 30 s after the fifth, doubling up to 15 min.
struct LoginThrottle: Sendable {
    let repository: any LoginThrottleRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits

    /// Throws `tooManyAttempts` while the number is paused; otherwise counts this attempt as failed until
    /// `recordSuccess` says otherwise.
    func beginAttempt(phone: String) async throws {
        let now = clock.now()
        let limits = limits
        let pausedUntil = try await repository.beginAttempt(phone: phone, at: now) { failures in
            guard failures >= limits.loginFailuresBeforeLockout else { return nil }
            let doublings = min(failures - limits.loginFailuresBeforeLockout, 20)
            let wait = min(limits.loginMaxLockout, limits.loginFirstLockout * pow(2, Double(doublings)))
            return now.addingTimeInterval(wait)
        }
        if let pausedUntil {
            throw Problem.tooManyAttempts(retryAfter: max(1, Int(pausedUntil.timeIntervalSince(now).rounded(.up))))
        }
    }

    func recordSuccess(phone: String) async throws {
        try await repository.reset(phone: phone)
    }
}
