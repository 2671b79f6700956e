import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SkiffAPI
import Synchronization

/// The generated client, set up for the app: bearer token, the configured request timeout, a hook for a 401
/// from any signed-in call, and no redirects followed (a 3xx is an error).
final class APIClient: Sendable {

    let client: Client
    /// The connections to Skiff's server (its trust, its timeouts), also for the simulated card network it serves:
    /// made at the first request, not before the first frame (it starts NIO's threads).
    private let connections: LazyHTTPClient
    /// The client; after `shutdown()`, `HTTPClientError.alreadyShutdown`.
    func httpClient() throws -> HTTPClient { try connections.client() }
    let tokens: SessionTokenBox
    /// Where Skiff's server is, for an address it gives relative to itself.
    private let endpoint: ServerEndpoint

    /// `onUnauthorised` runs (on any thread) when a signed-in request answers 401: the session is gone;
    /// `onLocked` when one answers 423: the server holds the session locked.
    /// `trust` checks an `https://` server's certificate; `timeout` bounds every request. `middlewares` (run
    /// nearest the network) are for tests.
    convenience init(
        endpoint: ServerEndpoint, trust: ServerTrust, tokens: SessionTokenBox, timeout: Duration,
        onUnauthorised: @escaping @Sendable () -> Void, onLocked: @escaping @Sendable () -> Void = {}
    ) {
        let (seconds, attoseconds) = timeout.components
        self.init(
            baseURL: endpoint.knownURL ?? URL(string: "http://127.0.0.1")!, trust: trust, tokens: tokens,
            timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000),
            middlewares: [ServerEndpointMiddleware(endpoint: endpoint)], onUnauthorised: onUnauthorised,
            onLocked: onLocked, endpoint: endpoint
        )
    }

    init(
        baseURL: URL, trust: ServerTrust = .system, tokens: SessionTokenBox, timeout: TimeAmount,
        middlewares: [any ClientMiddleware], onUnauthorised: @escaping @Sendable () -> Void,
        onLocked: @escaping @Sendable () -> Void = {}, endpoint: ServerEndpoint? = nil
    ) {
        self.endpoint = endpoint ?? ServerEndpoint(url: baseURL)
        let connections = LazyHTTPClient {
            // Made with the client: its making looks up the tracing system by a dynamic cast (~0.3 ms).
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: .seconds(3), read: timeout)
            configuration.httpVersion = .http1Only
            configuration.tlsConfiguration = trust.tlsConfiguration
            configuration.redirectConfiguration = .disallow
            return configuration
        }
        self.connections = connections
        self.tokens = tokens
        self.client = Client(
            serverURL: baseURL,
            configuration: .init(dateTranscoder: InternetDateTranscoder()),
            transport: LazyTransport(connections: connections, timeout: timeout),
            middlewares: [
                BearerTokenMiddleware { [tokens] in tokens.current },
                UnauthorisedMiddleware(tokens: tokens, onUnauthorised: onUnauthorised, onLocked: onLocked),
            ] + middlewares + [RedirectRefusalMiddleware()]
        )
    }

    /// `reference` (absolute, or a path on Skiff's server) as an absolute URL.
    func resolve(_ reference: String) async throws(NetworkError) -> URL {
        if let absolute = URL(string: reference), absolute.scheme != nil { return absolute }
        guard let url = URL(string: reference, relativeTo: try await endpoint.url())?.absoluteURL else {
            throw .server(status: 0, detail: "The server gave an address the wallet cannot read: \(reference)")
        }
        return url
    }

    /// Closes the connections; call once when the app ends.
    func shutdown() async {
        await connections.shutdown()
    }
}

/// An `HTTPClient` made when first asked for. Shut down (or dropped) before that, it never starts; shut down, it
/// refuses as a shut-down `HTTPClient` does, and makes no other.
final class LazyHTTPClient: Sendable {
    private enum State {
        case notMade
        case made(HTTPClient)
        case shutDown
    }

    private let configuration: @Sendable () -> HTTPClient.Configuration
    private let state = Mutex<State>(.notMade)

    init(configuration: @escaping @Sendable () -> HTTPClient.Configuration) {
        self.configuration = configuration
    }

    func client() throws -> HTTPClient {
        try state.withLock { state in
            switch state {
            case .made(let client):
                return client
            case .shutDown:
                throw HTTPClientError.alreadyShutdown
            case .notMade:
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration())
                state = .made(client)
                return client
            }
        }
    }

    func shutdown() async {
        guard let client = takeForShutdown() else { return }
        try? await client.shutdown()
    }

    private func takeForShutdown() -> HTTPClient? {
        state.withLock { state in
            defer { state = .shutDown }
            guard case .made(let client) = state else { return nil }
            return client
        }
    }

    deinit {
        // A client dropped without `shutdown()` (an early exit) must not take the process down with it.
        try? takeForShutdown()?.syncShutdown()
    }
}

/// The generated client's transport over a `LazyHTTPClient`: the client is made at the first request.
private struct LazyTransport: ClientTransport {
    let connections: LazyHTTPClient
    let timeout: TimeAmount

    func send(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        try await AsyncHTTPClientTransport(configuration: .init(client: try connections.client(), timeout: timeout))
            .send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
