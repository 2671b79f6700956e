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
}
