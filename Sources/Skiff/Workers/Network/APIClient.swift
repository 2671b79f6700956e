import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SkiffAPI
import SkiffCore
import Synchronization

/// The current session token, shared by every worker's requests; set at login, cleared at logout or a 401.
final class SessionTokenBox: Sendable {
    private let token = Mutex<String?>(nil)

    init() {}

    var current: String? { token.withLock { $0 } }

    func set(_ value: String?) { token.withLock { $0 = value } }
}

/// The generated client, set up for the app: bearer token, 10 s timeout, and a hook for a 401 from any
/// signed-in call.
final class APIClient: Sendable {
    /// How long any request may take before it counts as timed out.
    static let requestTimeout: TimeAmount = .seconds(10)

    let client: Client
    private let httpClient: HTTPClient
    let tokens: SessionTokenBox

    /// `onUnauthorised` runs (on any thread) when a signed-in request answers 401: the session is gone.
    /// `timeout` and `middlewares` (run nearest the network) are for tests.
    convenience init(baseURL: URL, tokens: SessionTokenBox, onUnauthorised: @escaping @Sendable () -> Void) {
        self.init(baseURL: baseURL, tokens: tokens, timeout: APIClient.requestTimeout, middlewares: [], onUnauthorised: onUnauthorised)
    }

    init(
        baseURL: URL, tokens: SessionTokenBox, timeout: TimeAmount, middlewares: [any ClientMiddleware],
        onUnauthorised: @escaping @Sendable () -> Void
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(3), read: timeout)
        configuration.httpVersion = .http1Only
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.httpClient = httpClient
        self.tokens = tokens
        self.client = Client(
            serverURL: baseURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: timeout)),
            middlewares: [
                BearerTokenMiddleware { [tokens] in tokens.current },
                UnauthorisedMiddleware(tokens: tokens, onUnauthorised: onUnauthorised),
            ] + middlewares
        )
    }

    /// Closes the connections; call once when the app ends.
    func shutdown() async {
        try? await httpClient.shutdown()
    }

    deinit {
        // A client dropped without `shutdown()` (an early exit) must not take the process down with it.
        try? httpClient.syncShutdown()
    }
}

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

/// Turns whatever a call threw, or a problem document it answered, into a `NetworkError`.
enum NetworkErrorMapping {
    /// Runs one call of the generated client, so every thrown error comes out as a `NetworkError`.
    static func call<T>(_ body: () async throws -> T) async throws(NetworkError) -> T {
        do {
            return try await body()
        } catch let error as NetworkError {
            throw error
        } catch {
            throw map(error)
        }
    }

    static func map(_ error: any Error) -> NetworkError {
        if error is CancellationError { return .cancelled }
        if let clientError = error as? ClientError {
            if Task.isCancelled { return .cancelled }
            if clientError.response != nil { return .server(status: clientError.response?.status.code ?? 0, detail: "Unreadable answer") }
            return map(clientError.underlyingError)
        }
        if let http = error as? HTTPClientError {
            switch http {
            case .cancelled, .requestStreamCancelled: return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            default: return .unreachable
            }
        }
        if Task.isCancelled { return .cancelled }
        if error is DecodingError { return .server(status: 0, detail: "Unreadable answer") }
        return .unreachable
    }

    /// A problem document as the error the scenes understand.
    static func problem(status: Int, problem: Components.Schemas.Problem?, retryAfter: Int?) -> NetworkError {
        let detail = problem?.detail ?? problem?.title ?? "The server refused the request."
        switch status {
        case 401: return .unauthorised
        case 400, 422:
            return .validation(detail: detail, fields: (problem?.errors ?? []).map { FieldError(field: $0.field, message: $0.message) })
        case 404: return .notFound
        case 409 where problem?._type.hasSuffix("idempotency-in-progress") == true: return .stillRunning
        case 409: return .conflict(detail: detail)
        case 429: return .throttled(retryAfterSeconds: max(1, retryAfter ?? 60))
        default: return .server(status: status, detail: detail)
        }
    }
}

extension Components.Responses.Problem {
    /// This problem response as a `NetworkError`, by the status its document states (RFC 9457: the response's).
    var networkError: NetworkError {
        let document: Components.Schemas.Problem = switch body {
        case .applicationProblemJson(let problem): problem
        }
        return NetworkErrorMapping.problem(status: document.status, problem: document, retryAfter: headers.retryAfter)
    }
}
