import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SkiffServer

@Suite("Problem responses")
struct ProblemMiddlewareTests {
    @Test("Malformed JSON is a 400 problem that echoes nothing of the body")
    func malformedJSON() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.post, "/v1/auth/login", rawBody: "{\"password\": \"hunter2-secret")
            #expect(reply.status == .badRequest)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.json["status"] as? Int == 400)
            #expect(reply.json["title"] is String)
            #expect(!reply.body.contains("hunter2"))
        }
    }

    @Test("A missing field is named in errors")
    func missingField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100"])
            #expect(reply.status == .badRequest)
            #expect(reply.errorFields == ["password"])
        }
    }

    @Test("A field of the wrong type is named in errors")
    func wrongType() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(
                .post, "/v1/cards", json: ["cardToken": 4242424242424242 as Int64, "holderName": "Sam"], token: user.token,
                idempotencyKey: "k"
            )
            #expect(reply.status == .badRequest)
            #expect(reply.errorFields == ["cardToken"])
            #expect(!reply.body.contains(Seeds.visa))
        }
    }

    @Test("An amount with a point (12.50, 100.00), an exponent (1e2) or past 64 bits is named with a message saying how amounts are written")
    func notWholeNumber() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            for amount in ["12.50", "100.00", "1e2", "1e30", "9223372036854775808"] {
                let reply = try await client.send(
                    .post, "/v1/transfers", token: user.token, idempotencyKey: "k-\(amount)",
                    rawBody: #"{"recipientId":"someone","amountMinor":\#(amount),"currency":"USD"}"#
                )
                #expect(reply.status == .badRequest && reply.errorFields == ["amountMinor"], "\(amount): \(reply.body)")
                #expect(reply.errorMessages["amountMinor"]?.contains("whole number") == true)
            }
        }
    }

    @Test("An unknown path is a 404 problem")
    func unknownPath() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.get, "/v1/nothing-here")
            #expect(reply.status == .notFound)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.json["type"] as? String == "urn:skiff:problem:not-found")
            #expect(reply.json["instance"] as? String == "/v1/nothing-here")
        }
    }

    @Test("An unexpected error is a bare 500 problem, logged by type only")
    func internalError() async throws {
        struct Boom: Error { let secret = "SELECT * FROM users -- hunter2" }
        let server = try TestServer()
        defer { server.remove() }
        let middleware = ProblemMiddleware<BasicRequestContext>(logger: server.configuration.logger)
        let problem = middleware.problem(for: Boom(), path: "/v1/me")
        #expect(problem == .internalError)
        let response = ProblemMiddleware<BasicRequestContext>.response(for: problem, path: "/v1/me")
        #expect(response.status == .internalServerError)
        #expect(response.headers[.contentType] == "application/problem+json")
        #expect(!server.logText.contains("hunter2"))
        #expect(!server.logText.contains("SELECT"))
    }
}
