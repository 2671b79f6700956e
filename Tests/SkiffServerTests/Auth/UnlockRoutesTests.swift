import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Unlock route")
struct UnlockRoutesTests {
    @Test("The right password answers 204 and the session stays open")
    func rightPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(reply.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
        }
    }

    @Test("A wrong password answers 422 on the password field and keeps the session")
    func wrongPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(.post, "/v1/session/unlock", json: ["password": "wrong password"], token: user.token)
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorFields == ["password"])
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
        }
    }

    @Test("Strangers' failed sign-ins on the number pause sign-in, never the signed-in owner's unlock")
    func strangersNeverPauseUnlock() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            for _ in 1...6 {
                _ = try await client.send(
                    .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "a stranger's guess"]
                )
            }
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            #expect(login.status == .tooManyRequests)
            let unlock = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(unlock.status == .noContent)
        }
    }

    @Test("Wrong unlock passwords pause that user's unlock with Retry-After, and not the number's sign-in")
    func unlockHasItsOwnThrottle() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            for _ in 1...5 {
                let reply = try await client.send(.post, "/v1/session/unlock", json: ["password": "wrong password"], token: user.token)
                #expect(reply.status == .unprocessableContent)
            }
            let unlock = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(unlock.status == .tooManyRequests)
            #expect(unlock.headers[.retryAfter] == "30")
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            #expect(login.status == .ok)
            server.clock.advance(by: 30)
            let later = try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: user.token)
            #expect(later.status == .noContent)
        }
    }

    @Test("Without a session it answers 401; an empty password or an extra field answers 400")
    func refusals() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password]).status == .unauthorized)
            let empty = try await client.send(.post, "/v1/session/unlock", json: ["password": ""], token: user.token)
            #expect(empty.status == .badRequest)
            let extra = try await client.send(
                .post, "/v1/session/unlock", json: ["password": Seeds.password, "phone": "1"], token: user.token
            )
            #expect(extra.status == .badRequest)
        }
    }
}
