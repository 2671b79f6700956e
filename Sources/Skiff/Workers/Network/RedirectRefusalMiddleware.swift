import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns a redirect (3xx) into an error. The HTTP client follows none (`redirectConfiguration` is `.disallow`):
/// following one would resend a password, a code or a card number, and the bearer token, to wherever it points.
/// The contract has no redirects, so one means a misconfigured proxy or a server that is not Skiff's.
struct RedirectRefusalMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.kind == .redirection else { return (response, responseBody) }
        throw NetworkError.server(
            status: response.status.code,
            detail: "The server answered \(response.status.code) (a redirect), which Skiff does not follow."
        )
    }
}
