import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for tests of the app's client: it records every request it reads
/// (`METHOD /path`) and answers each with what `answer` returns. Given a `tls` configuration it speaks only that
/// (to stand in for a server with outdated TLS), and counts the handshakes that completed.
final class RecordingHTTPServer: Sendable {
    struct Answer: Sendable {
        var status: HTTPResponseStatus
        var headers: [(String, String)] = []
        var body = ""
    }

    private struct State {
        var requests: [String] = []
        var handshakes = 0
    }

    let port: Int
    let scheme: String
    private let listener: any Channel
    private let state: Mutex<State>

    var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }
    /// Every request read so far, as `METHOD /path`.
    var requests: [String] { state.withLock { $0.requests } }
    /// How many TLS handshakes completed.
    var handshakes: Int { state.withLock { $0.handshakes } }

    private init(port: Int, scheme: String, listener: any Channel) {
        self.port = port
        self.scheme = scheme
        self.listener = listener
        self.state = Mutex(State())
    }

    static func start(
        tls: TLSConfiguration? = nil, answer: @escaping @Sendable (HTTPRequestHead) -> Answer
    ) async throws -> RecordingHTTPServer {
        let context = try tls.map { try NIOSSLContext(configuration: $0) }
        let recorder = Recorder()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try channel.pipeline.syncOperations.addHandler(HandshakeCounter(recorder: recorder))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Responder(recorder: recorder, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = RecordingHTTPServer(
            port: listener.localAddress?.port ?? 0, scheme: tls == nil ? "http" : "https", listener: listener
        )
        recorder.server.withLock { $0 = server }
        return server
    }

    func stop() async {
        try? await listener.close()
    }

    fileprivate func record(request: String) { state.withLock { $0.requests.append(request) } }
    fileprivate func recordHandshake() { state.withLock { $0.handshakes += 1 } }

    /// Reaches the server from the channel handlers, which are made before it exists.
    private final class Recorder: Sendable {
        let server = Mutex<RecordingHTTPServer?>(nil)
    }

    private final class HandshakeCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let recorder: Recorder
        init(recorder: Recorder) { self.recorder = recorder }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls {
                recorder.server.withLock { $0?.recordHandshake() }
            }
            context.fireUserInboundEventTriggered(event)
        }
    }

    private final class Responder: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let recorder: Recorder
        let answer: @Sendable (HTTPRequestHead) -> Answer
        private let head = Mutex<HTTPRequestHead?>(nil)

        init(recorder: Recorder, answer: @escaping @Sendable (HTTPRequestHead) -> Answer) {
            self.recorder = recorder
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let request):
                head.withLock { $0 = request }
                recorder.server.withLock { $0?.record(request: "\(request.method.rawValue) \(request.uri)") }
            case .body:
                break
            case .end:
                guard let request = head.withLock({ $0 }) else { return }
                let reply = answer(request)
                var headers = HTTPHeaders(reply.headers)
                headers.replaceOrAdd(name: "Content-Length", value: "\(reply.body.utf8.count)")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: reply.status, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: reply.body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
