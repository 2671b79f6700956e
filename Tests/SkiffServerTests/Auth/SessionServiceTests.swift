import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import SkiffServer

/// Sessions in memory, counting the reads and touches that reach "the database"; a read can be held after it
/// has read, to stand for a request that read the session just before something changed it.
final class CountingSessionRepository: SessionRepository {
    private let sessions = NIOLockedValueBox<[String: SessionRecord]>([:])
    private let counts = NIOLockedValueBox((reads: 0, touches: 0))
    private let heldRead = NIOLockedValueBox<(entered: AsyncStream<Void>.Continuation, gate: AsyncStream<Void>)?>(nil)

    var reads: Int { counts.withLockedValue { $0.reads } }
    var touches: Int { counts.withLockedValue { $0.touches } }

    func create(_ session: SessionRecord) async throws {
        sessions.withLockedValue { $0[session.tokenHash] = session }
    }

    func session(tokenHash: String) async throws -> SessionRecord? {
        counts.withLockedValue { $0.reads += 1 }
        let read = sessions.withLockedValue { $0[tokenHash] }
        if let held = heldRead.withLockedValue({ held in defer { held = nil }; return held }) {
            held.entered.yield()
            for await _ in held.gate { break }
        }
        return read
    }

    func touch(tokenHash: String, at date: Date) async throws {
        counts.withLockedValue { $0.touches += 1 }
        sessions.withLockedValue { sessions in
            guard let used = sessions[tokenHash]?.lastUsedAt else { return }
            sessions[tokenHash]?.lastUsedAt = max(used, date)
        }
    }

    func revoke(tokenHash: String, at date: Date) async throws {
        sessions.withLockedValue { $0[tokenHash]?.revokedAt = date }
    }

    func activeCount(now: Date, usedAfter: Date) async throws -> Int {
        sessions.withLockedValue { sessions in
            sessions.values.count { $0.revokedAt == nil && $0.expiresAt > now && $0.lastUsedAt > usedAfter }
        }
    }

    func lock(tokenHash: String, at date: Date, unusedSince: Date?) async throws {
        sessions.withLockedValue { sessions in
            guard let session = sessions[tokenHash], session.lockedAt == nil else { return }
            if let unusedSince, session.lastUsedAt > unusedSince { return }
            sessions[tokenHash]?.lockedAt = date
        }
    }

    func unlock(tokenHash: String, at date: Date) async throws {
        sessions.withLockedValue { sessions in
            sessions[tokenHash]?.lockedAt = nil
            if let used = sessions[tokenHash]?.lastUsedAt { sessions[tokenHash]?.lastUsedAt = max(used, date) }
        }
    }

    /// A revocation made elsewhere (another instance, a password reset), behind the service's back.
    func revokeBehindTheService(tokenHash: String, at date: Date) {
        sessions.withLockedValue { $0[tokenHash]?.revokedAt = date }
    }

    /// Holds the next read after it has read: `entered` yields once it holds, `open` lets it return what it read.
    func holdNextRead() -> (entered: AsyncStream<Void>, open: @Sendable () -> Void) {
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        heldRead.withLockedValue { $0 = (enteredContinuation, gate) }
        return (entered, {
            gateContinuation.yield()
            gateContinuation.finish()
        })
    }
}

@Suite("Session service", .timeLimit(.minutes(3)))
struct SessionServiceTests {
    let repository = CountingSessionRepository()
    let clock = TestClock()
    let limits = SkiffServerLimits()

    var service: SessionService { SessionService(repository: repository, clock: clock, limits: limits) }

    @Test("Every request reads its session, so a revocation made elsewhere is refused at the next request")
    func revocationElsewhere() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        for _ in 0..<3 { #expect(try await sessions.authenticate(token: opened.token)?.userID == "u1") }
        #expect(repository.reads == 3)
        repository.revokeBehindTheService(tokenHash: opened.session.tokenHash, at: clock.now())
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }

    @Test(
        "A request that read the session just before a logout leaves nothing behind that believes it, with a cache or without",
        arguments: [false, true]
    )
    func readBeforeLogout(cacheLive: Bool) async throws {
        let sessions = service
        sessions.cache.setLive(cacheLive)
        let opened = try await sessions.open(userID: "u1")
        let held = repository.holdNextRead()
        async let early = sessions.authenticate(token: opened.token)
        for await _ in held.entered { break }
        try await sessions.revoke(tokenHash: opened.session.tokenHash)
        held.open()
        // The request in flight read the session before the logout: it was live then.
        let inFlight = try await early
        #expect(inFlight?.userID == "u1")
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }

    @Test("A session idle for the lock time comes back locked, and stays so until unlocked")
    func idleLock() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        clock.advance(by: limits.sessionLockAfter)
        let locked = try #require(try await sessions.authenticate(token: opened.token))
        #expect(locked.lockedAt == clock.now())
        clock.advance(by: 1)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt == locked.lockedAt)
        #expect(repository.touches == 0)
        try await sessions.unlock(tokenHash: opened.session.tokenHash)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt == nil)
    }

    @Test("An unlock between an idle read and its lock is not undone by that lock")
    func unlockBeatsIdleLock() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        clock.advance(by: limits.sessionLockAfter)
        let stale = opened.session
        try await sessions.unlock(tokenHash: stale.tokenHash)
        try await repository.lock(tokenHash: stale.tokenHash, at: clock.now(), unusedSince: stale.lastUsedAt)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt == nil)
    }

    @Test("Use is written once a touch interval; an idle session still ends")
    func idleAndTouch() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        clock.advance(by: limits.sessionTouchInterval)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        #expect(repository.touches == 1)
        clock.advance(by: limits.sessionIdleTimeout)
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }
}
