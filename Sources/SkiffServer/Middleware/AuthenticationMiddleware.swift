import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The caller of the current request, set by `AuthenticationMiddleware` for the operation's handler.
struct Caller: Sendable {
    var userID: String
    var tokenHash: String

    @TaskLocal static var current: Caller?

    /// The signed-in caller, or 401.
    static func required() throws -> Caller {
        guard let current else { throw Problem.unauthorized }
        return current
    }
}

/// Requires a live bearer token on every operation except registration, sign-in and password reset.
/// Logout reads the token when there is one and answers 204 either way.
struct AuthenticationMiddleware: ServerMiddleware {
    let sessions: SessionService

    static let openOperations: Set<String> = [
        "register", "verifyRegistration", "login", "forgotPassword", "resetPassword", "logout",
    ]

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
        if caller == nil, !Self.openOperations.contains(operationID) { throw Problem.unauthorized }
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
