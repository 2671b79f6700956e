import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// What the fault proxy does to one request instead of passing it through.
enum Fault: String, CaseIterable, Sendable {
    /// Closes the connection before the request reaches the server: the server never acted.
    case dropBeforeServer
    /// Lets the server act, then closes the connection before answering: the answer is lost.
    case dropAfterServer
    /// Lets the server act, then answers only after `FaultProxy.lateBy` (longer than the app waits).
    case lateAnswer
    /// Answers 500 with a problem document; the server never sees the request.
    case serverError
    /// Lets the server act, then answers with its status and a body that is not JSON.
    case malformedBody
    /// Lets the server act, then sends half of its answer and closes the connection.
    case truncatedBody
    /// Answers 401 with a problem document, as for a session the server ended; the server never sees the request.
    case unauthorised
    /// Nothing listens: the proxy's port refuses every connection (this one is not per request).
    case refusedConnections

    /// Whether the server handled the request before the fault hit its answer.
    var serverActs: Bool { [.dropAfterServer, .lateAnswer, .malformedBody, .truncatedBody].contains(self) }
}

/// An HTTP proxy on 127.0.0.1 for tests, between the app's live workers and a real server: it passes every
/// request through, but for the requests a test names ("the next POST /v1/cards") it injects a `Fault`.
final class FaultProxy: Sendable {
    /// One armed fault: the requests it matches and how many more it hits.
    private struct Rule {
        var method: String
        /// Path segments; `*` matches any one segment (an id).
        var segments: [Substring]
        var fault: Fault
        var remaining: Int

        func matches(method: String, path: String) -> Bool {
            let candidate = path.split(separator: "/")
            guard method == self.method, candidate.count == segments.count else { return false }
            return zip(segments, candidate).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    private struct State {
        var rules: [Rule] = []
        var listener: (any Channel)?
        var connections: [ObjectIdentifier: any Channel] = [:]
        /// Every request seen, as `METHOD /path`, and whether a fault hit it.
        var log: [(request: String, fault: Fault?)] = []
    }

    let port: Int
    let upstream: URL
    /// How late a `.lateAnswer` comes.
    let lateBy: Duration
    private let client: HTTPClient
    private let state = Mutex(State())

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a proxy on a free loopback port in front of `upstream` (a plain `http://` server).
    ///
    /// The port is below the kernel's ephemeral range (32768–60999 here), so while the proxy refuses connections
    /// neither a listener bound to port 0 nor an outgoing connection can be given it, and listening again finds it
    /// free. (Picked by the kernel, it was taken meanwhile now and then: `EADDRINUSE` on listening again.) Proxies
    /// of this process never share one.
    static func start(upstream: URL, lateBy: Duration) async throws -> FaultProxy {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var lastError: (any Error)?
        for _ in 0..<100 {
            let port = Int.random(in: Self.ports)
            guard Self.portsHeld.withLock({ $0.insert(port).inserted }) else { continue }
            do {
                let listener = try await bind(port: port)
                let proxy = FaultProxy(port: port, upstream: upstream, lateBy: lateBy, client: client)
                proxy.accept(on: listener)
                return proxy
            } catch {
                _ = Self.portsHeld.withLock { $0.remove(port) }
                lastError = error
            }
        }
        try? await client.shutdown()
        throw lastError ?? CancellationError()
    }

    /// Where proxies listen: below the ephemeral ports, above the well-known ones.
    private static let ports = 20_000...32_767
    /// The ports this process's proxies hold, listening or refusing.
    private static let portsHeld = Mutex<Set<Int>>([])

    private init(port: Int, upstream: URL, lateBy: Duration, client: HTTPClient) {
        self.port = port
        self.upstream = upstream
        self.lateBy = lateBy
        self.client = client
    }

    /// Arms `fault` for the next `times` requests matching `request`, such as `"POST /v1/cards"` or
    /// `"POST /v1/cards/*/activate"`. `.refusedConnections` is not per request: use `refuseConnections()`.
    func inject(_ fault: Fault, on request: String, times: Int = 1) {
        precondition(fault != .refusedConnections, "refusing connections is done with refuseConnections()")
        let parts = request.split(separator: " ", maxSplits: 1)
        let rule = Rule(method: String(parts[0]), segments: parts[1].split(separator: "/"), fault: fault, remaining: times)
        state.withLock { $0.rules.append(rule) }
    }

    /// Forgets every armed fault.
    func clearFaults() {
        state.withLock { $0.rules.removeAll() }
    }

    /// The requests seen so far (`METHOD /path`), with the fault that hit each.
    var log: [(request: String, fault: Fault?)] { state.withLock { $0.log } }

    /// How many requests matching `request` a fault hit.
    func faultsHit(on request: String) -> Int {
        log.filter { $0.fault != nil && $0.request == request }.count
    }

    /// Stops listening and closes every open connection: connecting to the port is refused until
    /// `acceptConnections()`.
    func refuseConnections() async {
        let (listener, connections) = state.withLock { state in
            defer { state.listener = nil; state.connections = [:] }
            return (state.listener, Array(state.connections.values))
        }
        try? await listener?.close()
        await withTaskGroup(of: Void.self) { group in
            for connection in connections { group.addTask { await Self.closeAfterPeer(connection) } }
        }
    }

    /// Closes `channel` from this side, then waits (up to 2 s) for the app to close its side: its HTTP client has
    /// then let go of the connection, so its next request connects anew and is refused. Closed outright, an idle
    /// connection raced the app's next request, which went out on it before the client read the close: the app
    /// rightly said the answer was lost, where the test meant nothing to connect to (seen on a loaded CI run).
    private static func closeAfterPeer(_ channel: any Channel) async {
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        do {
            try await channel.close(mode: .output)
        } catch {
            channel.close(promise: nil)
        }
        try? await channel.closeFuture.get()
    }

    /// Listens on the same port again after `refuseConnections()`.
    func acceptConnections() async throws {
        guard state.withLock({ $0.listener == nil }) else { return }
        accept(on: try await Self.bind(port: port))
    }

    func stop() async {
        await refuseConnections()
        try? await client.shutdown()
        _ = Self.portsHeld.withLock { $0.remove(port) }
    }

    // MARK: Serving

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    private static func bind(port: Int) async throws -> NIOAsyncChannel<Connection, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
    }

    private func accept(on listener: NIOAsyncChannel<Connection, Never>) {
        state.withLock { $0.listener = listener.channel }
        Task {
            try? await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { await self.serve(connection) }
                    }
                }
            }
        }
    }

    private func serve(_ connection: Connection) async {
        let channel = connection.channel
        let id = ObjectIdentifier(channel)
        // A connection accepted just as `refuseConnections()` closed the listener is not kept either.
        let kept = state.withLock { state in
            guard state.listener != nil else { return false }
            state.connections[id] = channel
            return true
        }
        guard kept else { return await Self.closeAfterPeer(channel) }
        defer { state.withLock { _ = $0.connections.removeValue(forKey: id) } }
        try? await connection.executeThenClose { inbound, _ in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    // A fault that breaks the connection ends it here; the app's next request opens another.
                    guard try await answer(request, body: body, on: channel) else { return }
                }
            }
        }
    }

    /// Answers one request, passing it through or injecting its fault; false when the connection must close.
    private func answer(_ request: HTTPRequestHead, body: ByteBuffer, on channel: any Channel) async throws -> Bool {
        let path = String(request.uri.prefix { $0 != "?" })
        let name = "\(request.method.rawValue) \(path)"
        let fault = state.withLock { state -> Fault? in
            let index = state.rules.firstIndex { $0.remaining > 0 && $0.matches(method: request.method.rawValue, path: path) }
            let fault = index.map { state.rules[$0].fault }
            if let index { state.rules[index].remaining -= 1 }
            state.log.append((name, fault))
            return fault
        }
        switch fault {
        case .dropBeforeServer:
            return false
        case .serverError:
            try await write(Self.problem(status: .internalServerError, title: "Internal Server Error"), on: channel)
            return true
        case .unauthorised:
            try await write(Self.problem(status: .unauthorized, title: "Your session has ended."), on: channel)
            return true
        case .refusedConnections:
            return false
        case .dropAfterServer, .lateAnswer, .malformedBody, .truncatedBody, nil:
            break
        }
        let answer = try await forward(request, body: body)
        switch fault {
        case .dropAfterServer:
            return false
        case .lateAnswer:
            try await Task.sleep(for: lateBy)
            try await write(answer, on: channel)
            return true
        case .malformedBody:
            // A 204 carries no body to spoil: the same answer with a body is a 200 the app cannot read.
            let status: HTTPResponseStatus = answer.status == .noContent ? .ok : answer.status
            try await write(Self.response(status: status, contentType: "application/json", body: #"{"id": "c_1", "brand": [oops"#), on: channel)
            return true
        case .truncatedBody:
            var head = answer.head
            // A 204 has no body to cut: the same answer as a 200 whose promised body never comes.
            if head.status == .noContent { head.status = .ok }
            let full = max(answer.body.readableBytes, 64)
            head.headers.replaceOrAdd(name: "Content-Length", value: "\(full)")
            try await channel.writeAndFlush(HTTPServerResponsePart.head(head)).get()
            let half = answer.body.getSlice(at: answer.body.readerIndex, length: answer.body.readableBytes / 2) ?? ByteBuffer()
            try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(half))).get()
            return false
        default:
            try await write(answer, on: channel)
            return true
        }
    }

    /// A whole answer: its head (with the body's length) and its body.
    private struct Answer {
        var head: HTTPResponseHead
        var body: ByteBuffer
        var status: HTTPResponseStatus { head.status }
    }

    /// Sends the request on to the server and reads its whole answer.
    private func forward(_ request: HTTPRequestHead, body: ByteBuffer) async throws -> Answer {
        var outgoing = HTTPClientRequest(url: upstream.absoluteString + request.uri)
        outgoing.method = request.method
        for header in request.headers where !["host", "connection", "content-length", "transfer-encoding"].contains(header.name.lowercased()) {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        let response = try await client.execute(outgoing, timeout: .seconds(30))
        let answerBody = try await response.body.collect(upTo: 4 << 20)
        var headers = response.headers
        headers.remove(name: "Transfer-Encoding")
        headers.remove(name: "Connection")
        headers.replaceOrAdd(name: "Content-Length", value: "\(answerBody.readableBytes)")
        return Answer(head: HTTPResponseHead(version: .http1_1, status: response.status, headers: headers), body: answerBody)
    }

    private func write(_ answer: Answer, on channel: any Channel) async throws {
        try await channel.writeAndFlush(HTTPServerResponsePart.head(answer.head)).get()
        if answer.body.readableBytes > 0 {
            try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(answer.body))).get()
        }
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    }

    private static func response(status: HTTPResponseStatus, contentType: String, body: String) -> Answer {
        let bytes = ByteBuffer(string: body)
        let headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", "\(bytes.readableBytes)")])
        return Answer(head: HTTPResponseHead(version: .http1_1, status: status, headers: headers), body: bytes)
    }

    /// An RFC 9457 problem document, as the server words its own.
    private static func problem(status: HTTPResponseStatus, title: String) -> Answer {
        let body = #"{"type":"about:blank","title":"\#(title)","status":\#(status.code)}"#
        return response(status: status, contentType: "application/problem+json", body: body)
    }
}
