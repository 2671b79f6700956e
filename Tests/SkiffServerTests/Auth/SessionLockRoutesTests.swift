import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SkiffServer

extension TestServer {
    /// Runs `test` against the router on `store`: this server's SQLite file, or a fresh PostgreSQL database.
    func withRouter(
        on store: TestStore, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        switch store {
        case .sqlite:
            try await withRouter(test)
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                var server = self
                server.configuration.database = .postgres(url: databaseURL)
                server.configuration.fingerprintKey = Data(repeating: 7, count: 32).base64EncodedString()
                try await server.withRouter(test)
            }
        }
    }
}

extension Reply {
    /// Whether this is the locked session's answer: 423 with the `session-locked` problem.
    var isSessionLocked: Bool { status.code == 423 && problemType == "urn:skiff:problem:session-locked" }
}

@Suite("Locking a session")
struct SessionLockRoutesTests {
    @Test("A locked session answers every read and write with session-locked; the right password opens it", arguments: TestStore.allCases)
    func lockThenUnlock(store: TestStore) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter(on: store) { client in
            let user = try await server.register(client)
            #expect(try await client.send(.post, "/v1/session/lock", token: user.token).status == .noContent)
            // Idempotent: a second lock (the app sends one at every locked start) changes nothing.
            #expect(try await client.send(.post, "/v1/session/lock", token: user.token).status == .noContent)

            let me = try await client.send(.get, "/v1/me", token: user.token)
            #expect(me.isSessionLocked)
            #expect(me.contentType == "application/problem+json")
            #expect(try await client.send(.get, "/v1/cards", token: user.token).isSessionLocked)
            #expect(try await client.send(.get, "/v1/transactions?limit=5", token: user.token).isSessionLocked)
            #expect(try await server.addCard(client, token: user.token).isSessionLocked)

            let wrong = try await client.send(.post, "/v1/session/unlock", json: ["password": "wrong password"], token: user.token)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.errorFields == ["password"])
            #expect(try await client.send(.get, "/v1/me", token: user.token).isSessionLocked)

            let right = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(right.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
        }
    }

    @Test("Logging out of a locked session ends it", arguments: TestStore.allCases)
    func logoutWhileLocked(store: TestStore) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter(on: store) { client in
            let user = try await server.register(client)
            #expect(try await client.send(.post, "/v1/session/lock", token: user.token).status == .noContent)
            #expect(try await client.send(.post, "/v1/auth/logout", token: user.token).status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .unauthorized)
            let unlock = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(unlock.status == .unauthorized)
        }
    }

    @Test("Locking one session leaves the user's other sessions open", arguments: TestStore.allCases)
    func otherSessionsStayOpen(store: TestStore) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter(on: store) { client in
            let user = try await server.register(client)
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            let other = try #require(login.json["token"] as? String)
            #expect(try await client.send(.post, "/v1/session/lock", token: user.token).status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: other).status == .ok)
        }
    }

    @Test("The server locks a session left idle for its lock time; the idle timeout still ends it", arguments: TestStore.allCases)
    func idleLock(store: TestStore) async throws {
        let server = try TestServer()
        defer { server.remove() }
        let limits = server.configuration.limits
        try await server.withRouter(on: store) { client in
            let user = try await server.register(client)
            // Use is written at most once a touch interval; idle time counts from the use last written.
            server.clock.advance(by: limits.sessionTouchInterval)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
            server.clock.advance(by: limits.sessionLockAfter - 1)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
            server.clock.advance(by: limits.sessionLockAfter)
            #expect(try await client.send(.get, "/v1/me", token: user.token).isSessionLocked)
            // A refused request is no use of the session: it stays locked, and does not keep it alive.
            #expect(try await client.send(.get, "/v1/cards", token: user.token).isSessionLocked)
            let unlock = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(unlock.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)

            server.clock.advance(by: limits.sessionLockAfter)
            #expect(try await client.send(.get, "/v1/me", token: user.token).isSessionLocked)
            server.clock.advance(by: limits.sessionIdleTimeout)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .unauthorized)
        }
    }

    @Test("Lock needs a session: without one it answers 401")
    func lockNeedsSession() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let anonymous = try await client.send(.post, "/v1/session/lock")
            #expect(anonymous.status == .unauthorized)
            #expect(try await client.send(.post, "/v1/session/lock", token: "not-a-token").status == .unauthorized)
        }
    }
}
