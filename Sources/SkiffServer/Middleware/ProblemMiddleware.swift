import Foundation
import Hummingbird
import Logging
import OpenAPIRuntime
import SkiffAPI

/// Turns every error into an RFC 9457 `application/problem+json` response. Only `Problem`s speak for
/// themselves; anything unexpected becomes a bare 500 and is logged by type, never with the request.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = problem(for: error, path: request.uri.path)
            RequestObservation.current?.problem = problem.kind
            return Self.response(for: problem, path: request.uri.path)
        }
    }

    func problem(for error: any Error, path: String) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case is DatabaseUnavailable:
            return .databaseUnavailable
        case let serverError as ServerError:
            if let problem = serverError.underlyingError as? Problem { return problem }
            if serverError.underlyingError is DatabaseUnavailable { return .databaseUnavailable }
            // Before the input exists the runtime refuses what does not match the contract (its own errors, or the
            // decoder's); anything else there was thrown by a middleware (a database gone away mid-restart): a 500,
            // which a client retries, not a 400, which it would take as final.
            if serverError.operationInput == nil, Self.isRequestError(serverError.underlyingError) {
                return Self.requestProblem(serverError)
            }
            logger.error("operation failed", metadata: [
                "operation": "\(serverError.operationID)", "error": "\(String(reflecting: type(of: serverError.underlyingError)))",
            ])
            return .internalError
        case let httpError as HTTPError:
            if httpError.status == .notFound { return .notFound }
            return Problem(
                status: httpError.status, kind: .http, title: httpError.status.reasonPhrase,
                detail: httpError.status.code < 500 ? "The request was refused." : "The request could not be completed."
            )
        default:
            logger.error("request failed", metadata: ["path": "\(path)", "error": "\(String(reflecting: type(of: error)))"])
            return .internalError
        }
    }

    /// True for the errors the OpenAPI runtime raises for a request that does not match the contract.
    static func isRequestError(_ error: any Error) -> Bool {
        error is DecodingError || String(reflecting: type(of: error)).hasPrefix("OpenAPIRuntime.")
    }

    /// A request that does not match the contract: missing header, wrong content type, malformed JSON…
    static func requestProblem(_ error: ServerError) -> Problem {
        if let decoding = error.underlyingError as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context):
                return .validation(field: fieldPath(context.codingPath + [key]), "This field is required.")
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                return .validation(field: fieldPath(context.codingPath), "This field has the wrong type.")
            case .dataCorrupted(let context) where !context.codingPath.isEmpty:
                return .validation(field: fieldPath(context.codingPath), "This field has an invalid value.")
            default:
                return .badRequest("The request body is not valid JSON.")
            }
        }
        return .badRequest("The request does not match the API: \(error.causeDescription)")
    }

    static func fieldPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static func response(for problem: Problem, path: String) -> Response {
        let body = ProblemDocument(
            type: problem.type, title: problem.title, status: Int(problem.status.code), detail: problem.detail,
            instance: path, errors: problem.errors.isEmpty ? nil : problem.errors
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if let seconds = problem.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
        if problem.status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if !problem.allowedMethods.isEmpty { headers[.allow] = problem.allowedMethods.joined(separator: ", ") }
        return Response(status: problem.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON of a problem response.
private struct ProblemDocument: Encodable {
    var type: String
    var title: String
    var status: Int
    var detail: String?
    var instance: String
    var errors: [Problem.FieldError]?
}
