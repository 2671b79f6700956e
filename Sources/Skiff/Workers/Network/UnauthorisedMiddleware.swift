import Foundation
import HTTPTypes
import OpenAPIRuntime
import SkiffAPI

/// Calls the hook when a request other than the auth ones answers 401 for the session that is still current
/// (a late answer to a request of an earlier session is ignored).
struct UnauthorisedMiddleware: ClientMiddleware {
    let tokens: SessionTokenBox
    let onUnauthorised: @Sendable () -> Void
    /// The operations that need no session, plus logout: a 401 there means the session is already gone, which
    /// is what logging out wants, not news to report.
    static let authOperations = SkiffContract.unauthenticatedOperationIDs.union(["logout"])

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let sent = request.headerFields[.authorization]
        let (response, responseBody) = try await next(request, body, baseURL)
        if response.status.code == 401 && !Self.authOperations.contains(operationID),
           let current = tokens.current, sent == "Bearer \(current)" {
            onUnauthorised()
        }
        return (response, responseBody)
    }
}
