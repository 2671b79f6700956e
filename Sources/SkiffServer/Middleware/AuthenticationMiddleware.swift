import Foundation
import HTTPTypes
import OpenAPIRuntime
import SkiffAPI

/// Requires a live bearer token on every operation except those the contract marks `security: []`
/// (registration, sign-in, password reset, and logout, which reads the token when there is one). A locked
/// session's token is refused with `session-locked` (423) except on the operations the contract marks
/// `x-skiff-allowed-while-locked` (unlock, lock, logout).
struct AuthenticationMiddleware: ServerMiddleware {
    let sessions: SessionService

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String, next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let token = Self.bearerToken(request)
        var caller: Caller?
        let needsNoCredentials = SkiffContract.unauthenticatedOperationIDs.contains(operationID)
        if let token, let session = try await sessions.authenticate(token: token) {
            if session.lockedAt == nil || SkiffContract.operationIDsAllowedWhileLocked.contains(operationID) {
                caller = Caller(userID: session.userID, tokenHash: session.tokenHash)
            } else if !needsNoCredentials {
                throw Problem.sessionLocked
            }
        }
        if caller == nil, !needsNoCredentials { throw Problem.unauthorized }
        return try await Caller.$current.withValue(caller) {
            try await next(request, body, metadata)
        }
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case, spaces or tabs around the
    /// token), or nil when there is none, it is empty or longer than 200 bytes. Read on the UTF-8 bytes: Foundation's
    /// trimming and lowercasing were 2.8 % of an authenticated read's CPU (BENCHMARKS.md).
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headerFields[.authorization] else { return nil }
        let bytes = value.utf8
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        // `| 0x20` lowercases an ASCII letter; "bearer" is all letters, so no other byte can match one.
        guard bytes[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.index(after: space), end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        let length = bytes.distance(from: start, to: end)
        return length == 0 || length > 200 ? nil : String(value[start..<end])
    }
}
