import Foundation

/// Opens, checks, locks and revokes sessions: 12 h absolute, locked after 5 min and ended after 30 min unused.
///
/// Every check reads the session from the database, so a logout, a password reset or a lock made by any
/// instance is refused by every instance at the next request (nothing here remembers a session between requests).
struct SessionService: Sendable {
    let repository: any SessionRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits

    /// The token to hand out (shown once) and the stored session.
    struct Opened: Sendable {
        var token: String
        var session: SessionRecord
    }

    func open(userID: String) async throws -> Opened {
        let now = clock.now()
        let token = SessionToken.generate()
        let session = SessionRecord(
            tokenHash: SessionToken.hash(token), userID: userID, createdAt: now, lastUsedAt: now,
            expiresAt: now.addingTimeInterval(limits.sessionLifetime), revokedAt: nil
        )
        try await repository.create(session)
        return Opened(token: token, session: session)
    }

    /// The session of `token` as it stands now; nil when unknown, revoked, past 12 h or idle too long. A session
    /// unused for `sessionLockAfter` is locked here and comes back with `lockedAt` set; a locked session's
    /// requests are no use of it (they neither touch it nor keep it from ending). Use of a live one is recorded.
    func authenticate(token: String) async throws -> SessionRecord? {
        try await authenticate(tokenHash: SessionToken.hash(token))
    }

    /// `authenticate(token:)` for a session whose token is known by its hash. An open event stream checks its session
    /// with `recordingUse` false: a stream is no use of the session, so it never keeps one from locking or ending.
    func authenticate(tokenHash hash: String, recordingUse: Bool = true) async throws -> SessionRecord? {
        let now = clock.now()
        guard var session = try await repository.session(tokenHash: hash), session.revokedAt == nil,
              now < session.expiresAt
        else { return nil }
        let idle = now.timeIntervalSince(session.lastUsedAt)
        guard idle < limits.sessionIdleTimeout else { return nil }
        if session.lockedAt != nil { return session }
        if idle >= limits.sessionLockAfter {
            try await repository.lock(tokenHash: hash, at: now, unusedSince: session.lastUsedAt)
            session.lockedAt = now
            return session
        }
        if recordingUse, idle >= limits.sessionTouchInterval {
            try await repository.touch(tokenHash: hash, at: now)
        }
        return session
    }

    /// Sessions that would authenticate now, on every instance: not revoked, not past 12 h, not idle too long.
    func activeCount() async throws -> Int {
        let now = clock.now()
        return try await repository.activeCount(now: now, usedAfter: now.addingTimeInterval(-limits.sessionIdleTimeout))
    }

    func revoke(tokenHash: String) async throws {
        try await repository.revoke(tokenHash: tokenHash, at: clock.now())
    }

    func lock(tokenHash: String) async throws {
        try await repository.lock(tokenHash: tokenHash, at: clock.now(), unusedSince: nil)
    }

    func unlock(tokenHash: String) async throws {
        try await repository.unlock(tokenHash: tokenHash, at: clock.now())
    }
}
