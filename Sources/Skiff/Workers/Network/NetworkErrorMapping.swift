import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OpenAPIRuntime
import SkiffAPI

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
        if let error = error as? NetworkError { return error }
        if error is CancellationError { return .cancelled }
        if let clientError = error as? ClientError {
            if Task.isCancelled { return .cancelled }
            if let refusal = clientError.underlyingError as? NetworkError { return refusal }
            if clientError.response != nil { return .server(status: clientError.response?.status.code ?? 0, detail: "Unreadable answer") }
            return map(clientError.underlyingError)
        }
        if let http = error as? HTTPClientError {
            switch http {
            case .cancelled, .requestStreamCancelled: return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            default: return neverSent(http) ? .unreachable : .connectionLost
            }
        }
        if Task.isCancelled { return .cancelled }
        if let tls = error as? NIOSSLError, case .handshakeFailed = tls { return .notSecure }
        if error is DecodingError { return .server(status: 0, detail: "Unreadable answer") }
        return neverConnected(error) ? .unreachable : .connectionLost
    }

    /// AsyncHTTPClient's errors that come before any byte of the request was written: no connection (its connect
    /// timeout, the TLS or proxy handshake's), or a request it would not make. Anything else (the connection closed
    /// or broken after the request went) may have reached the server.
    private static func neverSent(_ error: HTTPClientError) -> Bool {
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
             .getConnectionFromPoolTimeout, .invalidProxyResponse, .proxyAuthenticationRequired,
             .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .alreadyShutdown:
            true
        default:
            false
        }
    }

    /// The errors of making a connection, which AsyncHTTPClient passes on as they are (measured with 1.37: a closed
    /// port is `IOError` `ECONNREFUSED` once the connect timeout has passed; a name not found is
    /// `NIOConnectionError`, as is every failed connection attempt of a happy-eyeballs connect). A connection made and
    /// then reset is not one of them: the request may have gone.
    private static func neverConnected(_ error: any Error) -> Bool {
        if error is NIOConnectionError || error is SocketAddressError { return true }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return true }
        if let io = error as? IOError {
            return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN, EADDRNOTAVAIL].contains(io.errnoCode)
        }
        return false
    }

    /// A problem document as the error the scenes understand.
    static func problem(status: Int, problem: Components.Schemas.Problem?, retryAfter: Int?) -> NetworkError {
        let detail = problem?.detail ?? problem?.title ?? "The server refused the request."
        switch status {
        case 401: return .unauthorised
        case 423: return .locked
        case 400, 422:
            return .validation(detail: detail, fields: (problem?.errors ?? []).map { FieldError(field: $0.field, message: $0.message) })
        case 404 where !(problem?.errors ?? []).isEmpty:
            // A 404 that names fields (nobody has this number) is a refusal of what was typed, worded by the server.
            return .validation(detail: detail, fields: (problem?.errors ?? []).map { FieldError(field: $0.field, message: $0.message) })
        case 404: return .notFound
        case 402: return .declined(reason: detail)
        case 403 where problem.flatMap({ ProblemType(uri: $0._type) }) == .stepUpRequired: return .stepUpRequired
        case 409 where problem.flatMap({ ProblemType(uri: $0._type) }) == .idempotencyInProgress: return .stillRunning
        // A frozen card is a refusal to say (unfreeze it first), not the state conflict that means "done already".
        case 409 where problem.flatMap({ ProblemType(uri: $0._type) }) == .cardFrozen: return .validation(detail: detail, fields: [])
        case 409: return .conflict(detail: detail)
        case 429: return .throttled(retryAfterSeconds: max(1, retryAfter ?? 60))
        case 503 where problem.flatMap({ ProblemType(uri: $0._type) }) == .cardNetworkUnavailable: return .unavailable(detail: detail)
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

extension NetworkError {
    /// The same error with each field the server refused under the app's name for it: `names` maps a field's name
    /// in the API to the domain's (`amountMinor` is the amount); a name not in it is the same in both. The worker
    /// that made the request knows both, so no scene spells a name of the API.
    func naming(_ names: [String: String]) -> NetworkError {
        guard case .validation(let detail, let fields) = self else { return self }
        return .validation(detail: detail, fields: fields.map { FieldError(field: names[$0.field] ?? $0.field, message: $0.message) })
    }
}

extension NetworkErrorMapping {
    /// Runs one worker call, its refused fields named as the app names them (`NetworkError.naming`).
    static func naming<T>(_ names: [String: String], _ call: () async throws(NetworkError) -> T) async throws(NetworkError) -> T {
        do {
            return try await call()
        } catch {
            throw error.naming(names)
        }
    }
}
