import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SkiffServer

/// Issue 23, point 2: no spelling of a path sidesteps a rule that decides by path.
@Suite("Request target: one plain form per path")
struct RequestTargetTests {
    /// Other spellings of `/v1/<rest>` that the router would read as that path.
    static func spellings(of rest: String) -> [String] {
        let segments = rest.split(separator: "/").map(String.init)
        let first = segments[0]
        let tail = segments.dropFirst().joined(separator: "/")
        let afterFirst = tail.isEmpty ? "" : "/" + tail
        return [
            "//v1/\(rest)", "/v1//\(rest)", "/v1/\(rest)//", "/v1/\(rest)/", "/v1/./\(rest)", "/v1/\(first)/.\(afterFirst)",
            "/v1/x/../\(rest)", "/v1%2F\(rest)", "/v1%2f\(rest)", "/v1/%2E/\(rest)", "/v1/%2e%2e/v1/\(rest)", "/v1/\(first)%2F",
        ]
    }

    @Test("Plain paths pass; empty, '.' or '..' segments, encoded '/' or '.', and a trailing '/' do not", arguments: [
        ("/", true), ("/v1/me", true), ("/v1/cards/6c1f-2a/freeze", true), ("/openapi.yaml", true), ("/health", true),
        ("", false), ("v1/me", false), ("//v1/me", false), ("/v1//me", false), ("/v1/me/", false), ("/v1/./me", false),
        ("/v1/../v1/me", false), ("/v1/me/.", false), ("/v1%2Fme", false), ("/v1%2fme", false), ("/v1/%2E/me", false),
        ("/v1/%2e%2E/me", false), ("/v1/me%5C", false), ("/v1\\me", false),
    ])
    func canonicalForm(path: String, canonical: Bool) {
        #expect(RequestTargetMiddleware<BasicRequestContext>.isCanonical(path) == canonical)
    }

    @Test("The auth bucket cannot be sidestepped: once it is empty, no spelling of /v1/auth/login reaches sign-in")
    func authBucketHoldsForEverySpelling() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            for spelling in Self.spellings(of: "auth/login") {
                let reply = try await client.badLogin(forwardedFor: nil, path: spelling)
                #expect(reply.status == .badRequest, "\(spelling): \(reply.status)")
                #expect(reply.problemType == "urn:skiff:problem:non-canonical-path", "\(spelling)")
                #expect(reply.headers[.cacheControl] == "no-store", "\(spelling)")
            }
            for _ in 1...20 { #expect(try await client.badLogin(forwardedFor: nil).status == .unprocessableContent) }
            #expect(try await client.badLogin(forwardedFor: nil).status == .tooManyRequests)
            for spelling in Self.spellings(of: "auth/login") {
                let reply = try await client.badLogin(forwardedFor: nil, path: spelling)
                #expect(reply.status != .unprocessableContent, "\(spelling) reached sign-in past an empty bucket")
            }
        }
    }

    @Test("No spelling of a /v1/ path answers without Cache-Control: no-store, or with the account's data")
    func noStoreForEverySpelling() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
            for rest in ["me", "cards", "transactions", "spending"] {
                for spelling in Self.spellings(of: rest) {
                    let reply = try await client.send(.get, spelling, token: user.token)
                    #expect(reply.status == .badRequest, "\(spelling): \(reply.status)")
                    #expect(reply.headers[.cacheControl] == "no-store", "\(spelling)")
                    #expect(reply.problemType == "urn:skiff:problem:non-canonical-path", "\(spelling)")
                }
            }
        }
    }

    @Test("A method a path does not declare gets one answer, 400, for every other spelling of the path")
    func methodRuleForEverySpelling() async throws {
        let server = try TestServer().allowingAuthBursts(of: 1_000)
        defer { server.remove() }
        try await server.withRouter { client in
            for (method, rest) in [(HTTPRequest.Method.delete, "me"), (.put, "auth/login"), (.patch, "cards")] {
                #expect(try await client.send(method, "/v1/\(rest)").status == .methodNotAllowed)
                for spelling in Self.spellings(of: rest) {
                    let reply = try await client.send(method, spelling)
                    #expect(reply.status == .badRequest, "\(method) \(spelling): \(reply.status)")
                    #expect(reply.headers[.allow] == nil, "\(method) \(spelling)")
                }
            }
        }
    }
}

/// Issue 23, point 11: a NUL character anywhere in the input is a 422 problem naming where, never a 500, on both stores.
@Suite("NUL in input")
struct NulInputTests {
    @Test("A NUL in a search, a path id or a JSON field answers 422 with a problem naming it", arguments: TestStore.allCases)
    func nulRefused(store: TestStore) async throws {
        try await TestServer.withRouter(on: store) { server, client in
            let user = try await server.register(client)
            let cardID = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
            for (path, field) in [("/v1/transactions?query=%00", "query"), ("/v1/transactions?limit=5&query=coffee%00shop", "query"),
                                  ("/v1/transactions?cursor=%00", "cursor")] {
                let reply = try await client.send(.get, path, token: user.token)
                #expect(reply.status == .unprocessableContent, "\(path): \(reply.status) \(reply.body)")
                #expect(reply.contentType == "application/problem+json", "\(path)")
                #expect(reply.errorFields == [field], "\(path)")
            }
            for (method, path) in [(HTTPRequest.Method.put, "/v1/cards/%00/freeze"), (.delete, "/v1/cards/\(cardID)%00"),
                                   (.post, "/v1/notifications/%00/read")] {
                let reply = try await client.send(method, path, token: user.token)
                #expect(reply.status == .unprocessableContent, "\(path): \(reply.status) \(reply.body)")
                #expect(reply.errorFields == ["path"], "\(path)")
            }
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202555\u{0}0100", "password": Seeds.password]
            )
            #expect(login.status == .unprocessableContent)
            #expect(login.errorFields == ["phoneNumber"])
            #expect(login.body.contains("NUL"))
            let register = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": "202 555 0101", "fullName": "Sam\u{0}Carter", "password": Seeds.password],
                idempotencyKey: UUID().uuidString
            )
            #expect(register.status == .unprocessableContent, "\(register.body)")
            #expect(register.errorFields == ["fullName"])
            let card = try await server.addCard(client, token: user.token, holderName: "Sam\u{0}")
            #expect(card.status == .unprocessableContent, "\(card.body)")
            #expect(card.errorFields == ["holderName"])
            #expect(try await client.send(.get, "/v1/transactions?query=coffee", token: user.token).status == .ok)
        }
    }
}

extension TestServer {
    /// Runs `body` with a server on a fresh `store` (for PostgreSQL, a database of its own), with `limits` changed,
    /// and a router client.
    static func withRouter(
        on store: TestStore, limits: (inout SkiffServerLimits) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        var server = try TestServer()
        defer { server.remove() }
        limits(&server.configuration.limits)
        switch store {
        case .sqlite:
            let ready = server
            try await ready.withRouter { client in try await body(ready, client) }
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                server.configuration.database = .postgres(url: databaseURL)
                server.configuration.fingerprintKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()
                let ready = server
                try await ready.withRouter { client in try await body(ready, client) }
            }
        }
    }
}

extension TestClientProtocol {
    /// `badLogin` sent to `path` as written.
    func badLogin(forwardedFor: String?, path: String) async throws -> Reply {
        try await post(path, json: ["countryCode": "+1", "phoneNumber": "1", "password": "x"], forwardedFor: forwardedFor)
    }
}
