import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends every request to the endpoint's address, waiting for it while the built-in server is still starting.
struct ServerEndpointMiddleware: ClientMiddleware {
    let endpoint: ServerEndpoint

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, try await endpoint.url())
    }
}
