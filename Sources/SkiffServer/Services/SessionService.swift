import Foundation

/// Opens, checks and revokes sessions: 12 h absolute, 30 min idle.
struct SessionService: Sendable {
    let repository: any SessionRepository
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let cache: SessionCache

    init(repository: any SessionRepository, clock: any ServerClock, limits: SkiffServerLimits) {
        self.repository = repository
        self.clock = clock
        self.limits = limits
        cache = SessionCache(lifetime: limits.sessionCacheLifetime)
    }

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

    /// The live session of `token`, its use recorded; nil when unknown, revoked, past 12 h or idle too long.
    /// A session read within the cache's lifetime is not read again (see `SessionCache`).
    func authenticate(token: String) async throws -> SessionRecord? {
        let now = clock.now()
        let hash = SessionToken.hash(token)
        let session: SessionRecord
        if let cached = cache.session(tokenHash: hash, now: now) {
            session = cached
        } else {
            guard let stored = try await repository.session(tokenHash: hash) else { return nil }
            cache.keep(stored, readAt: now)
            session = stored
        }
        guard session.revokedAt == nil, now < session.expiresAt,
              now.timeIntervalSince(session.lastUsedAt) < limits.sessionIdleTimeout
        else { return nil }
        if now.timeIntervalSince(session.lastUsedAt) >= limits.sessionTouchInterval {
            try await repository.touch(tokenHash: hash, at: now)
            cache.touched(tokenHash: hash, at: now)
        }
        return session
    }

    func revoke(tokenHash: String) async throws {
        cache.forget(tokenHash: tokenHash)
        try await repository.revoke(tokenHash: tokenHash, at: clock.now())
    }

    /// Forgets what this instance remembers of `userID`'s sessions, after something revoked them all.
    func forgetSessions(of userID: String) {
        cache.forget(userID: userID)
    }
}
