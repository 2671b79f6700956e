package import Foundation
public import HTTPTypes
package import OpenAPIRuntime

/// Adds `Authorization: Bearer <token>` to every request of a generated `Client` while a token is known.
///
/// The token is read for each request, so a client built once keeps working after login and logout.
package struct BearerTokenMiddleware: ClientMiddleware {
    private let token: @Sendable () async -> String?

    /// `token` is asked for the current session token; `nil` sends the request without one.
    package init(token: @escaping @Sendable () async -> String?) {
        self.token = token
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = await token() {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}
