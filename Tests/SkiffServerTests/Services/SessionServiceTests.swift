import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import SkiffServer

/// Sessions in memory, counting the reads and touches that reach "the database".
final class CountingSessionRepository: SessionRepository {
    private let sessions = NIOLockedValueBox<[String: SessionRecord]>([:])
    private let counts = NIOLockedValueBox((reads: 0, touches: 0))

    var reads: Int { counts.withLockedValue { $0.reads } }
    var touches: Int { counts.withLockedValue { $0.touches } }

    func create(_ session: SessionRecord) async throws {
        sessions.withLockedValue { $0[session.tokenHash] = session }
    }

    func session(tokenHash: String) async throws -> SessionRecord? {
        counts.withLockedValue { $0.reads += 1 }
        return sessions.withLockedValue { $0[tokenHash] }
    }

    func touch(tokenHash: String, at date: Date) async throws {
        counts.withLockedValue { $0.touches += 1 }
        sessions.withLockedValue { $0[tokenHash]?.lastUsedAt = date }
    }

    func revoke(tokenHash: String, at date: Date) async throws {
        sessions.withLockedValue { $0[tokenHash]?.revokedAt = date }
    }

    /// A revocation made elsewhere (another instance, a password reset), behind the service's back.
    func revokeBehindTheService(tokenHash: String, at date: Date) {
        sessions.withLockedValue { $0[tokenHash]?.revokedAt = date }
    }
}

@Suite("Session service and its cache")
struct SessionServiceTests {
    let repository = CountingSessionRepository()
    let clock = TestClock()

    func service(cacheLifetime: TimeInterval = 1) -> SessionService {
        var limits = SkiffServerLimits()
        limits.sessionCacheLifetime = cacheLifetime
        return SessionService(repository: repository, clock: clock, limits: limits)
    }

    @Test("A burst of requests with one token reads the session once within the cache's lifetime, then again")
    func burstReadsOnce() async throws {
        let sessions = service()
        let opened = try await sessions.open(userID: "u1")
        for _ in 0..<20 {
            #expect(try await sessions.authenticate(token: opened.token)?.userID == "u1")
        }
        #expect(repository.reads == 1)
        clock.advance(by: 1)
        #expect(try await sessions.authenticate(token: opened.token)?.userID == "u1")
        #expect(repository.reads == 2)
    }

    @Test("A lifetime of 0 reads the database on every request")
    func noCache() async throws {
        let sessions = service(cacheLifetime: 0)
        let opened = try await sessions.open(userID: "u1")
        for _ in 0..<3 { _ = try await sessions.authenticate(token: opened.token) }
        #expect(repository.reads == 3)
    }

    @Test("A logout on this instance is honoured at once, though the session was cached")
    func logoutAtOnce() async throws {
        let sessions = service()
        let opened = try await sessions.open(userID: "u1")
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        try await sessions.revoke(tokenHash: opened.session.tokenHash)
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }

    @Test("After a password reset here, every cached session of that user is read again")
    func resetForgetsTheUser() async throws {
        let sessions = service()
        let first = try await sessions.open(userID: "u1")
        let second = try await sessions.open(userID: "u1")
        let other = try await sessions.open(userID: "u2")
        for opened in [first, second, other] { _ = try await sessions.authenticate(token: opened.token) }
        for opened in [first, second] {
            repository.revokeBehindTheService(tokenHash: opened.session.tokenHash, at: clock.now())
        }
        sessions.forgetSessions(of: "u1")
        #expect(try await sessions.authenticate(token: first.token) == nil)
        #expect(try await sessions.authenticate(token: second.token) == nil)
        #expect(try await sessions.authenticate(token: other.token)?.userID == "u2")
        #expect(repository.reads == 5)
    }

    @Test("A revocation made elsewhere is honoured once the cached read is a lifetime old")
    func revocationElsewhere() async throws {
        let sessions = service()
        let opened = try await sessions.open(userID: "u1")
        _ = try await sessions.authenticate(token: opened.token)
        repository.revokeBehindTheService(tokenHash: opened.session.tokenHash, at: clock.now())
        clock.advance(by: 0.5)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        clock.advance(by: 0.5)
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }

    @Test("A cached session still ends when idle too long, and its use is written once a touch interval")
    func idleAndTouch() async throws {
        let sessions = service(cacheLifetime: 3600)
        let limits = SkiffServerLimits()
        let opened = try await sessions.open(userID: "u1")
        clock.advance(by: limits.sessionTouchInterval)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        #expect(repository.touches == 1)
        clock.advance(by: limits.sessionIdleTimeout)
        #expect(try await sessions.authenticate(token: opened.token) == nil)
    }
}
