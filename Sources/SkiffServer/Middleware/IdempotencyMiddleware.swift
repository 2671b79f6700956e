import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import SkiffAPI

/// Makes the operations that create something safe to retry: the first answer for a caller's
/// `Idempotency-Key` is kept for 24 h and replayed for the same request (as `IdempotencyFingerprint` sees it);
/// another request gets 422, and a retry while the first request still runs gets 409.
struct IdempotencyMiddleware: ServerMiddleware {
    let repository: any IdempotencyRepository
    let key: ServerKey
    let clock: any ServerClock
    let retention: TimeInterval
    let logger: Logger

    /// The operations whose contract requires an Idempotency-Key (read from `openapi.yaml` at start).
    static let operations = SkiffContract.idempotentOperationIDs
    /// Operations whose contract takes an optional Idempotency-Key: they consume a one-time code and answer a retry
    /// (`OneTimeCodeService`); the middleware validates the key and hands it on as `replayKey`.
    static let replayOperations = SkiffContract.replayableOperationIDs
    /// The Idempotency-Key of a `replayOperations` request exactly as sent. The generated handler's header value
    /// is percent-decoded ("a%20b" arrives as "a b"), so it is not what the contract's pattern describes.
    @TaskLocal static var replayKey: String?
    /// The operations whose keys the ledger keeps with what it writes (`x-skiff-idempotency-in-ledger`): no
    /// reservation here, which a server killed mid-request would leave behind; the handler hands `ledgerKey` on.
    static let ledgerOperations = SkiffContract.ledgerIdempotentOperationIDs
    /// The Idempotency-Key of a `ledgerOperations` request and the keyed hash of the request.
    @TaskLocal static var ledgerKey: LedgerKey?

    struct LedgerKey: Sendable, Equatable {
        var key: String
        var requestHash: String

        /// The current request's, or 400 when the middleware did not see one.
        static func required() throws -> LedgerKey {
            guard let current = IdempotencyMiddleware.ledgerKey else {
                throw Problem.validation(field: OpenAPIOperations.idempotencyKeyHeader, "Send an Idempotency-Key header.")
            }
            return current
        }
    }
    static let headerName = HTTPField.Name(OpenAPIOperations.idempotencyKeyHeader)!
    static let replayedHeaderName = HTTPField.Name("Idempotent-Replayed")!
    /// A reservation this old belongs to a request whose server stopped before answering.
    static let abandonedAfter: TimeInterval = 5 * 60

    /// `key` when it matches the contract's pattern (1 to 255 visible ASCII characters); otherwise a 400 naming the header.
    static func validated(_ key: String) throws -> String {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem.validation(field: OpenAPIOperations.idempotencyKeyHeader, "Send a unique Idempotency-Key header (such as a UUID) of 1 to 255 visible ASCII characters.")
        }
        return key
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String, next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if Self.replayOperations.contains(operationID) {
            let replayKey = try request.headerFields[Self.headerName].map(Self.validated)
            return try await Self.$replayKey.withValue(replayKey) { try await next(request, body, metadata) }
        }
        guard Self.operations.contains(operationID) else { return try await next(request, body, metadata) }
        let idempotencyKey = try Self.validated(request.headerFields[Self.headerName] ?? "")
        // RequestSizeLimitMiddleware refuses a larger body, declared or streamed, as it arrives.
        var bytes: [UInt8] = []
        if let body { bytes = try await [UInt8](collecting: body, upTo: CappedBody.maxRequestBody) }
        let requestHash = IdempotencyFingerprint.hash(
            method: request.method.rawValue, path: request.path ?? "", body: bytes, key: key
        )
        if Self.ledgerOperations.contains(operationID) {
            return try await Self.$ledgerKey.withValue(LedgerKey(key: idempotencyKey, requestHash: requestHash)) {
                try await next(request, HTTPBody(bytes), metadata)
            }
        }
        let scope = Caller.current?.userID ?? "anonymous"
        let now = clock.now()
        switch try await repository.begin(
            scope: scope, key: idempotencyKey, requestHash: requestHash, at: now,
            expiredBefore: now.addingTimeInterval(-retention), abandonedBefore: now.addingTimeInterval(-Self.abandonedAfter)
        ) {
        case .completed(let stored):
            logger.info("idempotent replay", metadata: ["operation": "\(operationID)"])
            var response = HTTPResponse(status: .init(code: stored.status))
            if let contentType = stored.contentType { response.headerFields[.contentType] = contentType }
            if let location = stored.location { response.headerFields[.location] = location }
            response.headerFields[Self.replayedHeaderName] = "true"
            return (response, HTTPBody(stored.body))
        case .inFlight:
            throw Problem.idempotencyInProgress
        case .mismatch:
            throw Problem.idempotencyMismatch
        case .started:
            do {
                let (response, responseBody) = try await next(request, HTTPBody(bytes), metadata)
                var responseBytes: [UInt8] = []
                if let responseBody {
                    responseBytes = try await [UInt8](collecting: responseBody, upTo: 1024 * 1024)
                }
                try await repository.complete(scope: scope, key: idempotencyKey, response: StoredResponse(
                    status: response.status.code, contentType: response.headerFields[.contentType],
                    location: response.headerFields[.location], body: Data(responseBytes)
                ))
                return (response, HTTPBody(responseBytes))
            } catch {
                try? await repository.abandon(scope: scope, key: idempotencyKey)
                throw error
            }
        }
    }
}
