import Foundation
import HTTPTypes
import OpenAPIRuntime
import SkiffAPI

/// Requires a live bearer token on every operation except those the contract marks `security: []`
/// (registration, sign-in, password reset, and logout, which reads the token when there is one).
struct AuthenticationMiddleware: ServerMiddleware {
    let sessions: SessionService

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let token = Self.bearerToken(request)
        var caller: Caller?
        if let token, let session = try await sessions.authenticate(token: token) {
            caller = Caller(userID: session.userID, tokenHash: session.tokenHash)
        }
        if caller == nil, !SkiffContract.unauthenticatedOperationIDs.contains(operationID) { throw Problem.unauthorized }
        return try await Caller.$current.withValue(caller) {
            try await next(request, body, metadata)
        }
    }

    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headerFields[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty || token.count > 200 ? nil : token
    }
}
