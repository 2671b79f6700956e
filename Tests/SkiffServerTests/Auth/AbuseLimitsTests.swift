import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SkiffAPI
import SkiffCore
import Testing
@testable import SkiffServer

/// The caps on one-time codes, the per-address bucket over `/v1/auth/`, and limits before bcrypt.
@Suite("Abuse limits")
struct AbuseLimitsTests {
    @Test("A new code for the same number and purpose ends the earlier one")
    func newCodeEndsOldOne() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let first = try await server.startRegistration(client)
            server.clock.advance(by: 31)
            let second = try await server.startRegistration(client)

            let old = try await client.send(
                .post, "/v1/auth/register/verify", json: ["verificationId": first.verificationID, "code": first.code]
            )
            #expect(old.status == .unprocessableContent)
            #expect(old.problemType == "urn:skiff:problem:code-expired")
            let new = try await client.send(
                .post, "/v1/auth/register/verify", json: ["verificationId": second.verificationID, "code": second.code]
            )
            #expect(new.status == .created)
        }
    }

    @Test("A number gets at most 5 codes an hour and 10 a day, then 429 with Retry-After until the oldest leaves")
    func codesPerNumber() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let forgot: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550177"]
            let start = server.clock.now()
            for _ in 1...5 {
                #expect(try await client.send(.post, "/v1/auth/password/forgot", json: forgot).status == .accepted)
                server.clock.advance(by: 31)
            }
            let hourly = try await client.send(.post, "/v1/auth/password/forgot", json: forgot)
            #expect(hourly.status == .tooManyRequests)
            #expect(hourly.problemType == "urn:skiff:problem:code-limit-reached")
            #expect(hourly.headers[.retryAfter] == "\(3600 - 5 * 31)")

            server.clock.advance(by: 3600)
            for _ in 1...5 {
                #expect(try await client.send(.post, "/v1/auth/password/forgot", json: forgot).status == .accepted)
                server.clock.advance(by: 31)
            }
            server.clock.advance(by: 3600)
            let daily = try await client.send(.post, "/v1/auth/password/forgot", json: forgot)
            #expect(daily.status == .tooManyRequests)
            #expect(daily.problemType == "urn:skiff:problem:code-limit-reached")
            let wait = start.addingTimeInterval(86_400).timeIntervalSince(server.clock.now())
            #expect(daily.headers[.retryAfter] == "\(Int(wait))")

            server.clock.advance(by: wait)
            #expect(try await client.send(.post, "/v1/auth/password/forgot", json: forgot).status == .accepted)
        }
    }

    @Test("Strangers' reset requests use up the number's anonymous caps only: its signed-in owner still gets card codes")
    func strangersKeepCardActivationOpen() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let forgot: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100"]
            var statuses: [HTTPResponse.Status] = []
            for _ in 1...5 {
                server.clock.advance(by: 31)
                statuses.append(try await client.send(.post, "/v1/auth/password/forgot", json: forgot).status)
            }
            // The registration's code and four resets fill the hour's five.
            #expect(statuses == [.accepted, .accepted, .accepted, .accepted, .tooManyRequests])
            server.clock.advance(by: 31)
            let (_, _, _, code) = try await server.startIssuedCardActivation(client, token: user.token)
            #expect(server.sender.last?.purpose == .cardActivation && server.sender.last?.code == code)
        }
    }

    @Test("After 20 wrong tries in a day across a number's codes, even the right code answers 429 with Retry-After")
    func wrongTriesPerNumber() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let forgot: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100"]
            let firstWrongTry = server.clock.now()
            for _ in 1...4 {
                let started = try await client.send(.post, "/v1/auth/password/forgot", json: forgot)
                let id = try #require(started.json["verificationId"] as? String)
                let wrong = try server.lastCode(to: user.phone) == "000000" ? "111111" : "000000"
                for _ in 1...5 {
                    let reply = try await client.send(
                        .post, "/v1/auth/password/reset", json: ["verificationId": id, "code": wrong, "newPassword": "a new long passphrase"]
                    )
                    #expect(reply.status == .unprocessableContent)
                }
                server.clock.advance(by: 15 * 60)
            }
            let started = try await client.send(.post, "/v1/auth/password/forgot", json: forgot)
            let id = try #require(started.json["verificationId"] as? String)
            let paused = try await client.send(
                .post, "/v1/auth/password/reset",
                json: ["verificationId": id, "code": try server.lastCode(to: user.phone), "newPassword": "a new long passphrase"]
            )
            #expect(paused.status == .tooManyRequests)
            #expect(paused.problemType == "urn:skiff:problem:code-tries-paused")
            let wait = firstWrongTry.addingTimeInterval(86_400).timeIntervalSince(server.clock.now())
            #expect(paused.headers[.retryAfter] == "\(Int(wait.rounded(.up)))")
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            #expect(login.status == .ok)
        }
    }

    @Test("A refused registration costs no bcrypt: the code limits are checked before the password is hashed")
    func registerLimitsBeforeHashing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let components = try await SkiffServerComponents(server.configuration)
        let register = {
            try await components.auth.register(
                countryCode: "+1", phoneNumber: "2025550100", fullName: "Sam", password: Seeds.password,
                clientAddress: "203.0.113.1"
            )
        }
        do {
            _ = try await register()
            let hashes = components.auth.passwords.hashCount
            let tooSoon = await #expect(throws: Problem.self) { try await register() }
            #expect(tooSoon?.kind == .codeRateLimited)
            #expect(components.auth.passwords.hashCount == hashes)

            for _ in 2...5 {
                server.clock.advance(by: 31)
                _ = try await register()
            }
            server.clock.advance(by: 31)
            let capped = components.auth.passwords.hashCount
            let overCap = await #expect(throws: Problem.self) { try await register() }
            #expect(overCap?.kind == .codeLimitReached)
            #expect(components.auth.passwords.hashCount == capped)
        } catch {
            await components.store.close()
            throw error
        }
        await components.store.close()
    }

    /// 400 where the contract's schema refuses the password (control characters, over 72 code points; NUL is
    /// refused before that, as in every text, by `JSONTextMiddleware`), 422 for 72 code points or fewer that are
    /// still over 72 bytes.
    @Test("Passwords with NUL or control characters, or over 72 bytes, are refused with a clear message", arguments: [
        ("sail\u{0}away-2026", "NUL character", 422), ("sail\taway-2026", "control characters", 400),
        (String(repeating: "x", count: 73), "72 bytes", 400), (String(repeating: "é", count: 37), "72 bytes", 422),
    ])
    func passwordRules(password: String, message: String, status: Int) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": password],
                idempotencyKey: UUID().uuidString
            )
            #expect(reply.status.code == status)
            #expect(reply.errorFields == ["password"])
            #expect(reply.body.contains(message))

            let user = try await server.register(client, number: "202 555 0101")
            let forgot = try await client.send(
                .post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550101"]
            )
            let id = try #require(forgot.json["verificationId"] as? String)
            let reset = try await client.send(
                .post, "/v1/auth/password/reset",
                json: ["verificationId": id, "code": try server.lastCode(to: user.phone), "newPassword": password]
            )
            #expect(reset.errorFields == ["newPassword"])
            #expect(reset.body.contains(message))
        }
    }

    @Test("A password of 72 bytes is accepted, in plain letters or accented ones")
    func longestPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client, number: "202 555 0101", password: String(repeating: "qZ9!", count: 18))
            _ = try await server.register(client, number: "202 555 0102", password: String(repeating: "é", count: 36))
        }
    }
}

/// The client address over real sockets (the peer is 127.0.0.1), with and without a trusted proxy.
@Suite("Client address")
struct ClientAddressTests {
    @Test("The peer is the client unless it is a trusted proxy; then the rightmost untrusted X-Forwarded-For hop is", arguments: [
        ("198.51.100.4", [String](), Set<String>(), "198.51.100.4"),
        ("198.51.100.4", ["203.0.113.9"], Set<String>(), "198.51.100.4"),
        ("10.0.0.2", ["203.0.113.9"], ["10.0.0.2"], "203.0.113.9"),
        ("10.0.0.2", ["1.2.3.4, 203.0.113.9"], ["10.0.0.2"], "203.0.113.9"),
        ("10.0.0.2", ["203.0.113.9, 10.0.0.3", "10.0.0.4"], ["10.0.0.2", "10.0.0.3", "10.0.0.4"], "203.0.113.9"),
        ("10.0.0.2", ["[2001:db8::1]:443"], ["10.0.0.2"], "2001:db8::1"),
        ("10.0.0.2", ["203.0.113.9:4711"], ["10.0.0.2"], "203.0.113.9"),
        ("10.0.0.2", ["not an address"], ["10.0.0.2"], "10.0.0.2"),
        ("10.0.0.2", [], ["10.0.0.2"], "10.0.0.2"),
        ("::0001", [], ["::1"], "::1"),
    ] as [(String, [String], Set<String>, String)])
    func resolve(peer: String, forwardedFor: [String], trusted: Set<String>, expected: String) {
        #expect(ClientAddress.resolve(peer: peer, forwardedFor: forwardedFor, trustedProxies: trusted) == expected)
    }

    @Test("A peer without an IP address is counted as unknown")
    func unknownPeer() {
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: ["203.0.113.9"], trustedProxies: []) == ClientAddress.unknown)
    }

    @Test("An untrusted peer's X-Forwarded-For is ignored: 20 auth requests at once, then 429 with Retry-After")
    func untrustedHeaderIgnored() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            for index in 1...20 {
                #expect(try await client.badLogin(forwardedFor: "198.51.100.\(index)").status == .unprocessableContent)
            }
            let limited = try await client.badLogin(forwardedFor: "198.51.100.99")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.problemType == "urn:skiff:problem:too-many-requests")
            #expect(limited.headers[.retryAfter] == "3")
            #expect(try await client.send(.get, "/v1/me").status == .unauthorized)
            server.clock.advance(by: 3)
            #expect(try await client.badLogin(forwardedFor: nil).status == .unprocessableContent)
            #expect(try await client.badLogin(forwardedFor: nil).status == .tooManyRequests)
        }
    }

    @Test("A trusted proxy's X-Forwarded-For is honoured: each client address has its own bucket")
    func trustedProxyHonoured() async throws {
        let server = try TestServer().trustingProxy("127.0.0.1")
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 1...20 { statuses.append(try await client.badLogin(forwardedFor: "203.0.113.1").status) }
            #expect(statuses == Array(repeating: .unprocessableContent, count: 20))
            #expect(try await client.badLogin(forwardedFor: "203.0.113.1").status == .tooManyRequests)
            #expect(try await client.badLogin(forwardedFor: "192.0.2.50, 203.0.113.1").status == .tooManyRequests)
            #expect(try await client.badLogin(forwardedFor: "203.0.113.2").status == .unprocessableContent)
            #expect(try await client.badLogin(forwardedFor: nil).status == .unprocessableContent)
        }
    }

    @Test("A client address gets at most 20 codes an hour whatever the numbers; another address is not held up")
    func codesPerAddress() async throws {
        let server = try TestServer().trustingProxy("127.0.0.1")
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            for index in 0..<20 {
                let reply = try await client.forgot(number: "20255501\(10 + index)", forwardedFor: "203.0.113.1")
                #expect(reply.status == .accepted)
                server.clock.advance(by: 3)
            }
            let capped = try await client.forgot(number: "2025550199", forwardedFor: "203.0.113.1")
            #expect(capped.status == .tooManyRequests)
            #expect(capped.problemType == "urn:skiff:problem:code-limit-reached")
            #expect(capped.headers[.retryAfter] == "\(3600 - 20 * 3)")
            #expect(try await client.forgot(number: "2025550199", forwardedFor: "203.0.113.2").status == .accepted)
        }
    }
}

extension TestClientProtocol {
    /// A sign-in with an invalid number: refused (400) without any work, so only the bucket can answer 429.
    func badLogin(forwardedFor: String?) async throws -> Reply {
        try await post("/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "1", "password": "x"], forwardedFor: forwardedFor)
    }

    func forgot(number: String, forwardedFor: String?) async throws -> Reply {
        try await post("/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": number], forwardedFor: forwardedFor)
    }

    func post(_ uri: String, json: [String: String], forwardedFor: String?) async throws -> Reply {
        var headers: HTTPFields = [.accept: "application/json", .contentType: "application/json"]
        if let forwardedFor { headers[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        let body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        let response = try await executeRequest(uri: uri, method: .post, headers: headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }
}
