import HTTPTypes
import OpenAPIRuntime
import SkiffAPI
import Synchronization

/// What the middleware along one request learn for `/metrics`: which operation of the contract it was (the OpenAPI
/// layer knows) and which problem answered it (`ProblemMiddleware` knows). `MetricsMiddleware` hands one to the
/// request's task and reads it when the response is made.
final class RequestObservation: Sendable {
    @TaskLocal static var current: RequestObservation?

    private let state = Mutex<(operation: String?, problem: ProblemType?)>((nil, nil))

    var operation: String? {
        get { state.withLock { $0.operation } }
        set { state.withLock { $0.operation = newValue } }
    }

    var problem: ProblemType? {
        get { state.withLock { $0.problem } }
        set { state.withLock { $0.problem = newValue } }
    }

    /// One request as counted.
    struct Answer: Sendable {
        var operation: String
        var status: Int
        var problem: ProblemType?
        /// Answered from the Idempotency-Key's stored response.
        var replayed: Bool
        var duration: Duration

        /// The outcome label of a money operation: `success` for a 2xx, "replayed", or the problem's slug.
        func outcome(success: String) -> String {
            if replayed { return "replayed" }
            if (200..<300).contains(status) { return success }
            return problem?.rawValue ?? "status-\(status)"
        }
    }
}

/// Tells the request's `RequestObservation` which operation of the contract it is.
struct OperationObservationMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        RequestObservation.current?.operation = operationID
        return try await next(request, body, metadata)
    }
}
