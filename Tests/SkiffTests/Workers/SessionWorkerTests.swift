import Testing
@testable import Skiff

@Suite("Session worker")
struct SessionWorkerTests {
    let auth = AuthWorkerDouble.succeeding
    let sessions = SessionStoreDouble(Seeds.session)
    let cache = CacheStoreDouble()

    var sut: SessionWorker { SessionWorker(auth: auth, sessions: sessions, cache: cache) }

    @Test("end asks the server to revoke the token, then forgets the session and the cache")
    func end() async {
        await sut.end()
        #expect(auth.logouts.count == 1)
        #expect(sessions.load() == nil)
        #expect(sessions.clears == 1)
        #expect(cache.clears == 1)
    }

    @Test("end forgets the session here even when the server cannot be reached")
    func endOffline() async {
        auth.logoutResult.set(.failure(.unreachable))
        await sut.end()
        #expect(sessions.load() == nil)
        #expect(cache.clears == 1)
    }

    @Test("forget leaves the server alone: for a session it has already ended")
    func forget() {
        sut.forget()
        #expect(auth.logouts.count == 0)
        #expect(sessions.load() == nil)
        #expect(cache.clears == 1)
    }
}
