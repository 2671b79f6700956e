import Foundation

/// Opens, checks, locks and revokes sessions: 12 h absolute, locked after 5 min and ended after 30 min unused.
///
/// A check reads the session from the database unless `cache` is live and holds it as read recently, unlocked and
/// used too lately to need its use written; a logout, a password reset or a lock made by any instance empties every
/// instance's cache of that user before its next request (docs/decisions/0203-session-cache-emptied-by-the-events-log.md).
struct SessionService: Sendable {
    let repository: any SessionRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits
    var cache = SessionCache()

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
        if let kept = cache.session(tokenHash: hash, at: now), kept.revokedAt == nil, kept.lockedAt == nil,
           now < kept.expiresAt, now.timeIntervalSince(kept.lastUsedAt) < servedFromCacheWithin {
            return kept
        }
        let ticket = cache.ticket()
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
            session.lastUsedAt = now
        }
        cache.keep(session, ticket: ticket, at: now)
        return session
    }

    /// A kept session is served only while its last recorded use is this recent: past it, the read decides whether
    /// to record use, lock it or end it.
    private var servedFromCacheWithin: TimeInterval {
        min(limits.sessionTouchInterval, limits.sessionLockAfter, limits.sessionIdleTimeout)
    }

    /// Sessions that would authenticate now, on every instance: not revoked, not past 12 h, not idle too long.
    func activeCount() async throws -> Int {
        let now = clock.now()
        return try await repository.activeCount(now: now, usedAfter: now.addingTimeInterval(-limits.sessionIdleTimeout))
    }

    // Each change below is also delivered to every instance's cache through the events log; forgetting here as well
    // keeps this instance's next request from meeting the session as it was before the change is delivered back.

    func revoke(tokenHash: String) async throws {
        try await repository.revoke(tokenHash: tokenHash, at: clock.now())
        cache.forget(tokenHash: tokenHash)
    }

    func lock(tokenHash: String) async throws {
        try await repository.lock(tokenHash: tokenHash, at: clock.now(), unusedSince: nil)
        cache.forget(tokenHash: tokenHash)
    }

    func unlock(tokenHash: String) async throws {
        try await repository.unlock(tokenHash: tokenHash, at: clock.now())
        cache.forget(tokenHash: tokenHash)
    }

    /// Forgets the sessions of `userID` kept here, after a change to them made elsewhere than above (a password reset
    /// revokes them all).
    func forgetSessions(userID: String) {
        cache.forget(userID: userID)
    }
}
