import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffAPI
import Testing
@testable import SkiffServer

@Suite("Authentication follows the contract")
struct AuthenticationMiddlewareTests {
    @Test("without a token, the operations the contract marks security: [] answer; every other one answers 401")
    func routesEnforceTheContract() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        let operations = SkiffContract.operations
        #expect(!operations.isEmpty)
        try await server.withRouter { client in
            for operation in operations {
                let uri = operation.path.replacing(/\{[^}]+\}/, with: "any-id")
                let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
                let reply = try await client.send(method, uri)
                if SkiffContract.unauthenticatedOperationIDs.contains(operation.id) {
                    #expect(reply.status != .unauthorized, "\(operation.id) asked for a session")
                    #expect(reply.status != .notFound, "\(operation.id) has no route at \(uri)")
                } else {
                    #expect(reply.status == .unauthorized, "\(operation.id) answered \(reply.status) without a session")
                }
            }
        }
    }

    @Test("with a locked session's token, every operation of the contract answers session-locked but unlock, lock and logout")
    func lockedSessionEverywhere() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await client.send(.post, "/v1/session/lock", token: user.token).status == .noContent)
            for operation in SkiffContract.operations where operation.id != "logout" {
                let uri = operation.path.replacing(/\{[^}]+\}/, with: "any-id")
                let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
                let reply = try await client.send(method, uri, token: user.token)
                if SkiffContract.operationIDsAllowedWhileLocked.contains(operation.id) {
                    #expect(reply.status.code != 423, "\(operation.id) refused a locked session")
                    #expect(reply.status != .unauthorized, "\(operation.id) did not know the locked session")
                } else if SkiffContract.unauthenticatedOperationIDs.contains(operation.id) {
                    #expect(reply.status.code != 423, "\(operation.id) needs no session, locked or not")
                } else {
                    #expect(reply.isSessionLocked, "\(operation.id) answered \(reply.status) for a locked session")
                }
            }
        }
    }

    @Test("the bearer token is read from the header in any case of the scheme, without the blanks around it")
    func bearerTokenParsing() {
        func token(_ header: String?) -> String? {
            var fields = HTTPFields()
            if let header { fields[.authorization] = header }
            return AuthenticationMiddleware.bearerToken(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/", headerFields: fields))
        }
        #expect(token("Bearer abc123") == "abc123")
        #expect(token("bearer abc123") == "abc123")
        #expect(token("BeArEr abc123") == "abc123")
        #expect(token("Bearer   abc123 \t") == "abc123")
        #expect(token("Bearer \tab c") == "ab c")
        #expect(token("Bearer " + String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
        #expect(token("Bearer " + String(repeating: "a", count: 201)) == nil)
        #expect(token(nil) == nil)
        #expect(token("Bearer") == nil)
        #expect(token("Bearer ") == nil)
        #expect(token("Bearer  \t ") == nil)
        #expect(token("Basic abc123") == nil)
        #expect(token("Bearers abc123") == nil)
        #expect(token("Bearex abc123") == nil)
        #expect(token("Bear\u{E9}r abc123") == nil)
        #expect(token("Bearer t\u{F6}ken") == "t\u{F6}ken")
    }
}
