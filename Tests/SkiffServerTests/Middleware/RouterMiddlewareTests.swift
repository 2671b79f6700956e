import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SkiffAPI
import Testing
@testable import SkiffServer

@Suite("Router middleware: body size, methods, caching")
struct RouterMiddlewareTests {
    /// The operations that read a body, signed-in or not, and the headers each needs besides.
    static let bodyOperations: [(name: String, path: String, needsToken: Bool, needsKey: Bool)] = [
        ("login", "/v1/auth/login", false, false),
        ("forgotPassword", "/v1/auth/password/forgot", false, false),
        ("resetPassword", "/v1/auth/password/reset", false, false),
        ("verifyRegistration", "/v1/auth/register/verify", false, false),
        ("register", "/v1/auth/register", false, true),
        ("addCard", "/v1/cards", true, true),
    ]

    /// A JSON object of a little over 65 KiB.
    static let oversizedBody = "{\"countryCode\": \"+1\", \"phoneNumber\": \"" + String(repeating: "2", count: 65 * 1024 + 100) + "\"}"

    @Test("A body over 64 KiB with a declared length is refused with 413 on every operation that reads one")
    func declaredLengthTooLarge() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            for operation in Self.bodyOperations {
                let reply = try await client.send(
                    .post, operation.path, token: operation.needsToken ? user.token : nil,
                    idempotencyKey: operation.needsKey ? UUID().uuidString : nil, rawBody: Self.oversizedBody
                )
                #expect(reply.status == .contentTooLarge, "\(operation.name): \(reply.status)")
                #expect(reply.contentType == "application/problem+json", "\(operation.name)")
                #expect(reply.problemType == "urn:skiff:problem:payload-too-large", "\(operation.name)")
            }
            #expect(server.sender.messages.count == 1)
        }
    }

    @Test("A chunked body is cut off with 413 once it passes 64 KiB, on every operation that reads one")
    func chunkedBodyTooLarge() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { testClient in
            let user = try await server.register(testClient)
            let port = try #require(testClient.port)
            for operation in Self.bodyOperations {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(operation.path)")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                if operation.needsToken { request.headers.add(name: "Authorization", value: "Bearer \(user.token)") }
                if operation.needsKey { request.headers.add(name: "Idempotency-Key", value: UUID().uuidString) }
                let chunks = stride(from: 0, to: Self.oversizedBody.utf8.count, by: 8 * 1024).map { start in
                    ByteBuffer(bytes: Array(Self.oversizedBody.utf8).dropFirst(start).prefix(8 * 1024))
                }
                let (stream, source) = AsyncStream<ByteBuffer>.makeStream()
                for chunk in chunks { source.yield(chunk) }
                source.finish()
                request.body = .stream(stream, length: .unknown)
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
                #expect(response.status.code == 413, "\(operation.name): \(response.status.code) \(body)")
                #expect(response.headers.first(name: "Content-Type") == "application/problem+json", "\(operation.name)")
                #expect(body.contains("urn:skiff:problem:payload-too-large"), "\(operation.name)")
            }
        }
    }

    @Test("A body just under the limit still reaches the operation")
    func bodyUnderLimit() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let body = "{\"countryCode\": \"+1\", \"phoneNumber\": \"202 555 0100\", \"password\": \""
                + String(repeating: "x", count: 60 * 1024) + "\"}"
            let reply = try await client.send(.post, "/v1/auth/login", rawBody: body)
            #expect(reply.status != .contentTooLarge)
            #expect(reply.status.code < 500)
        }
    }

    @Test("An undeclared method on a path of the contract answers 405 with the declared methods in Allow", arguments: [
        (HTTPRequest.Method.delete, "/v1/me", "GET"),
        (.put, "/v1/auth/login", "POST"),
        (.patch, "/v1/cards", "GET, POST"),
        (.get, "/v1/cards/some-card", "DELETE"),
        (.get, "/v1/notifications/n-1/read", "POST"),
    ])
    func methodNotAllowed(method: HTTPRequest.Method, path: String, allow: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(method, path)
            #expect(reply.status == .methodNotAllowed)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.headers[.allow] == allow)
            #expect(reply.problemType == "urn:skiff:problem:method-not-allowed")
        }
    }

    @Test("Every path of the contract answers 405 to each method it does not declare")
    func methodNotAllowedEverywhere() async throws {
        let server = try TestServer().allowingAuthBursts(of: 1_000)
        defer { server.remove() }
        let byPath = Dictionary(grouping: SkiffContract.operations, by: \.path)
        try await server.withRouter { client in
            for (template, operations) in byPath {
                let path = template.replacingOccurrences(of: "{id}", with: "x-1")
                let declared = Set(operations.map { $0.method.uppercased() })
                for method in [HTTPRequest.Method.get, .put, .post, .delete, .patch] where !declared.contains(method.rawValue) {
                    let reply = try await client.send(method, path)
                    #expect(reply.status == .methodNotAllowed, "\(method) \(path): \(reply.status)")
                    let allow = Set((reply.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allow == declared, "\(method) \(path)")
                }
            }
            #expect(try await client.send(.delete, "/v1/nothing-here").status == .notFound)
            #expect(try await client.send(.get, "/v1/cards/a/b/c").status == .notFound)
        }
    }

    @Test("The contract is served at /openapi.yaml without a session")
    func servesContract() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.get, "/openapi.yaml")
            #expect(reply.status == .ok)
            #expect(reply.body == SkiffContract.document)
        }
    }

    @Test("Every operation's answer, success or problem, is Cache-Control: no-store")
    func noStoreEverywhere() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let demo = ["countryCode": "+1", "phoneNumber": "202 555 0143", "password": "sail-away-2026"]
            let login = try await client.send(.post, "/v1/auth/login", json: demo)
            #expect(login.status == .ok)
            let token = try #require(login.json["token"] as? String)
            let cards = try await client.send(.get, "/v1/cards", token: token)
            let issued = try #require(cards.array.first { $0["kind"] as? String == "issued" }?["id"] as? String)
            let added = try await server.addCard(client, token: token)
            let addedID = try #require(added.json["id"] as? String)
            let notifications = try await client.send(.get, "/v1/notifications", token: token)
            let notificationID = try #require(notifications.array.first?["id"] as? String)
            let activation = try await client.send(.post, "/v1/cards/\(issued)/activation", token: token)
            let forgot = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "202 555 0199"])
            let replies: [String: Reply] = [
                "login": login, "listCards": cards, "addCard": added, "listNotifications": notifications,
                "startCardActivation": activation, "forgotPassword": forgot,
                "getMe": try await client.send(.get, "/v1/me", token: token),
                "listTransactions": try await client.send(.get, "/v1/transactions?limit=5", token: token),
                "getSpending": try await client.send(.get, "/v1/spending", token: token),
                "markNotificationRead": try await client.send(.post, "/v1/notifications/\(notificationID)/read", token: token),
                "freezeCard": try await client.send(.put, "/v1/cards/\(addedID)/freeze", token: token),
                "unfreezeCard": try await client.send(.delete, "/v1/cards/\(addedID)/freeze", token: token),
                "deleteCard": try await client.send(.delete, "/v1/cards/\(addedID)", token: token),
                "activateCard": try await client.send(
                    .post, "/v1/cards/\(issued)/activate", json: ["last4": "0000", "verificationId": "v", "code": "123456"], token: token
                ),
                "register": try await client.send(
                    .post, "/v1/auth/register",
                    json: ["countryCode": "+1", "phoneNumber": "202 555 0177", "fullName": "Sam", "password": Seeds.password],
                    idempotencyKey: "k-1"
                ),
                "verifyRegistration": try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": "v", "code": "123456"]),
                "resetPassword": try await client.send(
                    .post, "/v1/auth/password/reset", json: ["verificationId": "v", "code": "123456", "newPassword": Seeds.password]
                ),
                "findRecipient": try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550199", token: token),
                "sendTransfer": try await client.send(
                    .post, "/v1/transfers", json: ["recipientId": "nobody", "amountMinor": 100, "currency": "USD"], token: token,
                    idempotencyKey: "t-1"
                ),
                "getTransfer": try await client.send(.get, "/v1/transfers/nothing", token: token),
                "createTopUp": try await client.send(
                    .post, "/v1/topups", json: ["cardId": "nothing", "amountMinor": 100, "currency": "USD"], token: token,
                    idempotencyKey: "u-1"
                ),
                "getTopUp": try await client.send(.get, "/v1/topups/nothing", token: token),
                "getCardNetwork": try await client.send(.get, "/v1/card-network", token: token),
                "streamEvents": try await client.send(.get, "/v1/events", token: token),
                "stepUp": try await client.send(.post, "/v1/session/step-up", json: ["password": "sail-away-2026"], token: token),
                "lockSession": try await client.send(.post, "/v1/session/lock", token: token),
                "unlockSession": try await client.send(.post, "/v1/session/unlock", json: ["password": "sail-away-2026"], token: token),
                "logout": try await client.send(.post, "/v1/auth/logout", token: token),
            ]
            #expect(Set(replies.keys) == Set(SkiffContract.operations.map(\.id)))
            for (operation, reply) in replies {
                #expect(reply.headers[.cacheControl] == "no-store", "\(operation) answered \(reply.status) without no-store")
            }
            #expect([login, cards, added, notifications].allSatisfy { (200..<300).contains($0.status.code) })
        }
    }
}
