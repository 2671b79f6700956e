import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import SkiffAPI

/// Answers a retry of every operation that takes an `Idempotency-Key` by the strategy the contract names for it
/// (`x-skiff-idempotency`, read into `SkiffContract.idempotencyStrategies`; decision 0191). It checks the key against
/// the contract's schema for the header (400 naming it) and sets `IdempotencyKey.current` for the handler, which hands
/// it to its service:
/// - `storedAnswer`: the first answer for a caller's key is kept for 24 h and replayed for the same request (as
///   `IdempotencyFingerprint` sees it); another request gets 422, and a retry while the first request still runs 409.
/// - `ledger`: the key and the request's hash go on to the handler; the ledger keeps them with what it writes, so
///   there is no reservation here, which a server killed mid-request would leave behind.
/// - `codeReplay`: the key is optional and goes on as sent, with no hash; the code's single use is bound to it.
struct IdempotencyMiddleware: ServerMiddleware {
    let repository: any IdempotencyRepository
    let key: ServerKey
    let clock: any ServerClock
    let retention: TimeInterval
    let logger: Logger

    /// Each operation's strategy, by operation id (read from `openapi.yaml` at start).
    static let strategies = SkiffContract.idempotencyStrategies
    /// The length and pattern the contract gives the header.
    static let keyFacets = SkiffContract.idempotencyKeyFacets
    static let headerName = HTTPField.Name(OpenAPIOperations.idempotencyKeyHeader)!
    static let replayedHeaderName = HTTPField.Name("Idempotent-Replayed")!
    /// A reservation this old belongs to a request whose server stopped before answering.
    static let abandonedAfter: TimeInterval = 5 * 60

    /// The refusal of a key outside `keyFacets`: its lengths as the contract gives them, its pattern (`^[!-~]+$`) in words.
    static let refusal: String = {
        let lengths = keyFacets.maxLength.map { " of \(keyFacets.minLength ?? 1) to \($0)" } ?? " of"
        return "Send a unique Idempotency-Key header (such as a UUID)\(lengths) visible ASCII characters."
    }()

    /// `key` when it fits the contract's schema for the header (`keyFacets`); otherwise a 400 naming the header.
    static func validated(_ key: String) throws -> String {
        guard ContractStrings.problem(key, keyFacets) == nil else {
            throw Problem.validation(field: OpenAPIOperations.idempotencyKeyHeader, refusal)
        }
        return key
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String, next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let strategy = Self.strategies[operationID] else { return try await next(request, body, metadata) }
        let sent = request.headerFields[Self.headerName]
        switch strategy {
        case .codeReplay:
            let replayKey = try sent.map { IdempotencyKey(value: try Self.validated($0), requestHash: nil, strategy: strategy) }
            return try await IdempotencyKey.$current.withValue(replayKey) { try await next(request, body, metadata) }
        case .ledger:
            let (idempotencyKey, bytes) = try await hashed(request, body, sent: sent, strategy: strategy)
            return try await IdempotencyKey.$current.withValue(idempotencyKey) {
                try await next(request, HTTPBody(bytes), metadata)
            }
        case .storedAnswer:
            let (idempotencyKey, bytes) = try await hashed(request, body, sent: sent, strategy: strategy)
            return try await IdempotencyKey.$current.withValue(idempotencyKey) {
                try await answerOnce(idempotencyKey, request, bytes, metadata: metadata, operationID: operationID, next: next)
            }
        }
    }

    /// The key `sent` (required) with the keyed hash of the request, and the body as read for it.
    private func hashed(
        _ request: HTTPRequest, _ body: HTTPBody?, sent: String?, strategy: IdempotencyStrategy
    ) async throws -> (IdempotencyKey, [UInt8]) {
        let value = try Self.validated(sent ?? "")
        // RequestSizeLimitMiddleware refuses a larger body, declared or streamed, as it arrives.
        var bytes: [UInt8] = []
        if let body { bytes = try await [UInt8](collecting: body, upTo: CappedBody.maxRequestBody) }
        let requestHash = IdempotencyFingerprint.hash(
            method: request.method.rawValue, path: request.path ?? "", body: bytes, key: key
        )
        return (IdempotencyKey(value: value, requestHash: requestHash, strategy: strategy), bytes)
    }

    /// The stored answer to the caller's `idempotencyKey`, or the answer of `next`, kept for the next retry.
    private func answerOnce(
        _ idempotencyKey: IdempotencyKey, _ request: HTTPRequest, _ bytes: [UInt8], metadata: ServerRequestMetadata,
        operationID: String, next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (sent, requestHash) = (idempotencyKey.value, try idempotencyKey.heldRequestHash())
        let scope = Caller.current?.userID ?? "anonymous"
        let now = clock.now()
        switch try await repository.begin(
            scope: scope, key: sent, requestHash: requestHash, at: now,
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
                try await repository.complete(scope: scope, key: sent, response: StoredResponse(
                    status: response.status.code, contentType: response.headerFields[.contentType],
                    location: response.headerFields[.location], body: Data(responseBytes)
                ))
                return (response, HTTPBody(responseBytes))
            } catch {
                try? await repository.abandon(scope: scope, key: sent)
                throw error
            }
        }
    }
}
