import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

/// Starting an activation takes the card's last four digits and checks them before a code is sent: other digits (or
/// none) are refused on `last4` in SkiffCore's words, and no code goes out, on SQLite and on PostgreSQL.
@Suite("Card activation checks the last four first", .timeLimit(.minutes(3)))
struct CardActivationLastFourTests {
    /// A test server over `store`, fresh, passed to `body`; the PostgreSQL case needs `SKIFF_TEST_POSTGRES_URL`.
    private func withServer(_ store: TestStore, _ body: @escaping @Sendable (TestServer) async throws -> Void) async throws {
        let base = try TestServer()
        defer { base.remove() }
        switch store {
        case .sqlite:
            try await body(base)
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                var server = base
                server.configuration.database = .postgres(url: databaseURL)
                // A PostgreSQL store is shared by instances, so the server key is given, as in production.
                server.configuration.fingerprintKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()
                let configured = server
                try await body(configured)
            }
        }
    }

    @Test("Wrong last four digits are refused with SkiffCore's sentence and no code is sent; the right ones get a code", arguments: TestStore.allCases)
    func wrongLastFourSendsNoCode(store: TestStore) async throws {
        try await withServer(store) { server in
            try await server.withRouter { client in
                let user = try await server.register(client)
                let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first)
                let id = try #require(issued["id"] as? String)
                let last4 = try #require(issued["last4"] as? String)
                let wrong = last4 == "0000" ? "1111" : "0000"
                let sentBefore = server.sender.messages.count

                let refused = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": wrong], token: user.token)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.problemType == "urn:skiff:problem:validation")
                #expect(refused.errorMessages == ["last4": CardLastFour.Problem.mismatch.message])
                #expect(server.sender.messages.count == sentBefore, "no code was sent")

                let malformed = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": "12"], token: user.token)
                #expect(malformed.status == .badRequest)
                #expect(malformed.errorMessages == ["last4": CardLastFour.Problem.malformed.message])
                #expect(server.sender.messages.count == sentBefore, "no code was sent")

                // Refusals spend nothing: the right digits get a code at once, with no wait for a resend.
                let started = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": last4], token: user.token)
                #expect(started.status == .accepted)
                let verificationID = try #require(started.json["verificationId"] as? String)
                let message = try #require(server.sender.last)
                #expect(server.sender.messages.count == sentBefore + 1)
                #expect(message.purpose == .cardActivation)
                let activated = try await client.send(
                    .post, "/v1/cards/\(id)/activate",
                    json: ["last4": last4, "verificationId": verificationID, "code": message.code], token: user.token
                )
                #expect(activated.status == .ok)
                #expect(activated.json["status"] as? String == "active")
            }
        }
    }

    @Test("A frozen or active card still answers its 409 first, whatever the digits", arguments: TestStore.allCases)
    func conflictsFirst(store: TestStore) async throws {
        try await withServer(store) { server in
            try await server.withRouter { client in
                let user = try await server.register(client)
                let id = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
                #expect(try await client.send(.put, "/v1/cards/\(id)/freeze", token: user.token).status == .ok)
                let frozen = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": "9999"], token: user.token)
                #expect(frozen.status == .conflict)
                #expect(frozen.problemType == "urn:skiff:problem:card-frozen")
                let external = try #require(try await server.addCard(client, token: user.token).json["id"] as? String)
                let active = try await client.send(.post, "/v1/cards/\(external)/activation", json: ["last4": "4242"], token: user.token)
                #expect(active.problemType == "urn:skiff:problem:card-already-active")
                #expect(server.sender.messages.filter { $0.purpose == .cardActivation }.isEmpty)
            }
        }
    }

    @Test("Without the last four, no code is sent: the body is required", arguments: TestStore.allCases)
    func withoutBody(store: TestStore) async throws {
        try await withServer(store) { server in
            try await server.withRouter { client in
                let user = try await server.register(client)
                let id = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
                let sentBefore = server.sender.messages.count
                let refused = try await client.send(.post, "/v1/cards/\(id)/activation", token: user.token)
                #expect(refused.status == .badRequest)
                let empty = try await client.send(.post, "/v1/cards/\(id)/activation", json: [:], token: user.token)
                #expect(empty.status == .badRequest)
                #expect(empty.errorMessages["last4"] != nil, "\(empty.body)")
                #expect(server.sender.messages.count == sentBefore)
            }
        }
    }
}
