import Foundation
import HTTPTypes
import OpenAPIRuntime
import SkiffAPI

/// Calls a hook when a request answers for the session that is still current (a late answer to a request of an
/// earlier session is ignored): `onUnauthorised` for a 401 on a request other than the auth ones (the session is
/// gone), `onLocked` for a 423 (the server holds the session locked until the password is given again).
struct UnauthorisedMiddleware: ClientMiddleware {
    let tokens: SessionTokenBox
    let onUnauthorised: @Sendable () -> Void
    var onLocked: @Sendable () -> Void = {}
    /// The operations that need no session, plus logout: a 401 there means the session is already gone, which
    /// is what logging out wants, not news to report.
    static let authOperations = SkiffContract.unauthenticatedOperationIDs.union(["logout"])

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let sent = request.headerFields[.authorization]
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let current = tokens.current, sent == "Bearer \(current)" else { return (response, responseBody) }
        if response.status.code == 401 && !Self.authOperations.contains(operationID) {
            onUnauthorised()
        } else if response.status.code == 423 {
            onLocked()
        }
        return (response, responseBody)
    }
}
