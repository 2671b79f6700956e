import Foundation
import HummingbirdTesting
import Logging
import Testing
@testable import SkiffServer

@Suite("Request ids")
struct RequestIDMiddlewareTests {
    @Test("Every answer, a problem or a route outside the contract included, carries its own X-Request-ID")
    func everyAnswer() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let answers = [
                try await client.send(.get, "/health"),
                try await client.send(.get, "/v1/me"),
                try await client.send(.get, "/nothing-here"),
                try await client.send(.post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "not-the-password-1"]),
            ]
            let ids = answers.compactMap { $0.headers[RequestIDMiddleware<SkiffRequestContext>.header] }
            #expect(ids.count == answers.count, "\(answers.map(\.headers))")
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy { !$0.isEmpty })
            #expect(answers[1].status == .unauthorized && answers[2].status == .notFound)
        }
    }

    @Test("A server whose log handler keeps no metadata still answers with an id of its own (Hummingbird's would trap)")
    func handlerWithoutMetadata() async throws {
        var server = try TestServer()
        defer { server.remove() }
        server.configuration.logger = Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() }
        try await server.withRouter { client in
            let first = try await client.send(.get, "/health").headers[RequestIDMiddleware<SkiffRequestContext>.header]
            let second = try await client.send(.get, "/v1/me").headers[RequestIDMiddleware<SkiffRequestContext>.header]
            #expect(first?.count == 32 && second?.count == 32 && first != second, "\(String(describing: first)) \(String(describing: second))")
        }
    }
}
