import Foundation
import Testing
@testable import SkiffServer

@Suite("Session cache")
struct SessionCacheTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func session(_ hash: String, userID: String) -> SessionRecord {
        SessionRecord(
            tokenHash: hash, userID: userID, createdAt: now, lastUsedAt: now, expiresAt: now.addingTimeInterval(43_200),
            revokedAt: nil
        )
    }

    func liveCache(capacity: Int = 100) -> SessionCache {
        let cache = SessionCache(capacity: capacity, maximumAge: 10)
        cache.setLive(true)
        return cache
    }

    @Test("Nothing is kept or served until it is live, and going live or not forgets everything")
    func liveness() {
        let cache = SessionCache()
        cache.keep(session("a", userID: "u1"), ticket: cache.ticket(), at: now)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
        cache.setLive(true)
        cache.keep(session("a", userID: "u1"), ticket: cache.ticket(), at: now)
        #expect(cache.session(tokenHash: "a", at: now)?.userID == "u1")
        cache.setLive(false)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
        cache.setLive(true)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
    }

    @Test("A kept session is served until its maximum age")
    func maximumAge() {
        let cache = liveCache()
        cache.keep(session("a", userID: "u1"), ticket: cache.ticket(), at: now)
        #expect(cache.session(tokenHash: "a", at: now.addingTimeInterval(9.9)) != nil)
        #expect(cache.session(tokenHash: "a", at: now.addingTimeInterval(10)) == nil)
    }

    @Test("Forgetting a user forgets all of that user's sessions and no one else's")
    func forgetUser() {
        let cache = liveCache()
        for (hash, user) in [("a", "u1"), ("b", "u1"), ("c", "u2")] {
            cache.keep(session(hash, userID: user), ticket: cache.ticket(), at: now)
        }
        cache.forget(userID: "u1")
        #expect(cache.session(tokenHash: "a", at: now) == nil)
        #expect(cache.session(tokenHash: "b", at: now) == nil)
        #expect(cache.session(tokenHash: "c", at: now) != nil)
        cache.forget(tokenHash: "c")
        #expect(cache.session(tokenHash: "c", at: now) == nil)
        #expect(cache.count == 0)
    }

    @Test("A read begun before its user was forgotten is not kept; one of another user, or begun after, is")
    func readRacingAForgetting() {
        let cache = liveCache()
        let before = cache.ticket()
        cache.forget(userID: "u1")
        cache.keep(session("a", userID: "u1"), ticket: before, at: now)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
        cache.keep(session("c", userID: "u2"), ticket: before, at: now)
        #expect(cache.session(tokenHash: "c", at: now) != nil)
        cache.keep(session("a", userID: "u1"), ticket: cache.ticket(), at: now)
        #expect(cache.session(tokenHash: "a", at: now) != nil)
    }

    @Test("Forgetting a session not kept, or everything, keeps no read begun before it")
    func forgettingTheUnknown() {
        let cache = liveCache()
        let before = cache.ticket()
        cache.forget(tokenHash: "unknown")
        cache.keep(session("a", userID: "u1"), ticket: before, at: now)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
        let again = cache.ticket()
        cache.forgetEverything()
        cache.keep(session("a", userID: "u1"), ticket: again, at: now)
        #expect(cache.session(tokenHash: "a", at: now) == nil)
    }

    @Test("At capacity it starts over rather than grow")
    func capacity() {
        let cache = liveCache(capacity: 3)
        for index in 0..<3 { cache.keep(session("s\(index)", userID: "u\(index)"), ticket: cache.ticket(), at: now) }
        #expect(cache.count == 3)
        cache.keep(session("s3", userID: "u3"), ticket: cache.ticket(), at: now)
        #expect(cache.count == 1)
        #expect(cache.session(tokenHash: "s3", at: now) != nil)
    }
}

@Suite("Session service with a live cache", .timeLimit(.minutes(3)))
struct SessionServiceCacheTests {
    let repository = CountingSessionRepository()
    let clock = TestClock()
    let limits = SkiffServerLimits()
    let cache: SessionCache = {
        let cache = SessionCache()
        cache.setLive(true)
        return cache
    }()

    var service: SessionService { SessionService(repository: repository, clock: clock, limits: limits, cache: cache) }

    @Test("A session is read once, then served from the cache until its user's sessions are forgotten")
    func servedUntilForgotten() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        for _ in 0..<5 { #expect(try await sessions.authenticate(token: opened.token)?.userID == "u1") }
        #expect(repository.reads == 1)
        // A revocation written elsewhere and delivered: the next request reads and is refused.
        repository.revokeBehindTheService(tokenHash: opened.session.tokenHash, at: clock.now())
        cache.forget(userID: "u1")
        #expect(try await sessions.authenticate(token: opened.token) == nil)
        #expect(repository.reads == 2)
    }

    @Test("This instance's own logout, lock and password reset are refused at its next request")
    func ownChanges() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        _ = try await sessions.authenticate(token: opened.token)
        try await sessions.lock(tokenHash: opened.session.tokenHash)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt != nil)
        try await sessions.unlock(tokenHash: opened.session.tokenHash)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt == nil)
        try await sessions.revoke(tokenHash: opened.session.tokenHash)
        #expect(try await sessions.authenticate(token: opened.token) == nil)

        let other = try await sessions.open(userID: "u2")
        _ = try await sessions.authenticate(token: other.token)
        repository.revokeBehindTheService(tokenHash: other.session.tokenHash, at: clock.now())
        sessions.forgetSessions(userID: "u2")
        #expect(try await sessions.authenticate(token: other.token) == nil)
    }

    @Test("Past the touch interval the session is read and its use written; past the lock time it locks")
    func touchAndLockStillRead() async throws {
        let sessions = service
        let opened = try await sessions.open(userID: "u1")
        _ = try await sessions.authenticate(token: opened.token)
        clock.advance(by: limits.sessionTouchInterval)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt == nil)
        #expect(repository.touches == 1)
        #expect(repository.reads == 2)
        #expect(try await sessions.authenticate(token: opened.token) != nil)
        #expect(repository.reads == 2)
        clock.advance(by: limits.sessionLockAfter)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt != nil)
    }

    @Test("A lock time shorter than the touch interval is kept to: the cache never serves a session due to lock")
    func shortLockTime() async throws {
        var limits = limits
        limits.sessionLockAfter = 5
        let sessions = SessionService(repository: repository, clock: clock, limits: limits, cache: cache)
        let opened = try await sessions.open(userID: "u1")
        _ = try await sessions.authenticate(token: opened.token)
        clock.advance(by: 5)
        #expect(try await sessions.authenticate(token: opened.token)?.lockedAt != nil)
    }
}

@Suite("Session cache fed by the events log")
struct SessionCacheDeliveryTests {
    @Test("A session locked or revoked by a write the service never saw is forgotten when its event commits", arguments: TestStore.allCases)
    func forgottenOnCommit(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let fixtures = RepositoryTests()
            try await fixtures.makeUser(repositories, id: "u1", phone: "+12025550100")
            try await fixtures.makeUser(repositories, id: "u2", phone: "+12025550101")
            let hub = EventHub(perUser: 5, perServer: 10, perAddress: 10)
            let cache = SessionCache()
            let delivery = Task { await store.deliverEvents(to: hub, sessions: cache) }
            defer { delivery.cancel() }
            try await waitUntil("the cache is live") { cache.isLive }

            func keep(_ hash: String, userID: String) async throws -> SessionRecord {
                let record = SessionRecord(
                    tokenHash: hash, userID: userID, createdAt: fixtures.now, lastUsedAt: fixtures.now,
                    expiresAt: fixtures.now.addingTimeInterval(43_200), revokedAt: nil
                )
                try await repositories.sessions.create(record)
                cache.keep(record, ticket: cache.ticket(), at: fixtures.now)
                #expect(cache.session(tokenHash: hash, at: fixtures.now) != nil)
                return record
            }
            _ = try await keep("a", userID: "u1")
            _ = try await keep("b", userID: "u2")
            try await repositories.sessions.lock(tokenHash: "a", at: fixtures.now, unusedSince: nil)
            try await waitUntil("u1's session is forgotten") { cache.session(tokenHash: "a", at: fixtures.now) == nil }
            #expect(cache.session(tokenHash: "b", at: fixtures.now) != nil)
            try await repositories.sessions.revoke(tokenHash: "b", at: fixtures.now)
            try await waitUntil("u2's session is forgotten") { cache.session(tokenHash: "b", at: fixtures.now) == nil }

            delivery.cancel()
            _ = await delivery.value
            // Nothing would be delivered now, so nothing is served.
            #expect(!cache.isLive)
        }
    }

    /// Polls `condition` every 10 ms for up to 10 s.
    private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<1_000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting until \(what)")
    }
}
