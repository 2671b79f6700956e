import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
@testable import SkiffServer

/// Issue 23, point 9: slow clients cannot hold connections (slowloris), and real clients are still served.
@Suite("Connection timeouts and cap")
struct ConnectionTimeoutTests {
    /// A running instance with `limits` changed, for `body`; stopped afterwards.
    static func withInstance(
        limits: (inout SkiffServerLimits) -> Void, _ body: (SkiffServerInstance) async throws -> Void
    ) async throws {
        var server = try TestServer()
        defer { server.remove() }
        // `TestServer` sets every connection timeout to one no test waits for; each test shortens the one it is about.
        limits(&server.configuration.limits)
        let instance = try await SkiffServerInstance.start(server.configuration)
        do {
            try await body(instance)
        } catch {
            await instance.stop()
            throw error
        }
        await instance.stop()
    }

    @Test("50 connections that send part of their headers and stall are all closed after the head timeout; a real client is served meanwhile")
    func stalledHeadsClosed() async throws {
        try await Self.withInstance(limits: { $0.requestHeadTimeout = 1 }) { instance in
            let stalled = try await RawConnection.open(50, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            let reply = try await InstanceClient(baseURL: instance.baseURL).send(.get, "/health")
            #expect(reply.status == .ok)
            #expect(await RawConnection.closedWithin(.seconds(20), stalled) == stalled.count)
        }
    }

    @Test("A connection that sends its head and stalls in its body is closed after the body timeout")
    func stalledBodyClosed() async throws {
        try await Self.withInstance(limits: { $0.requestBodyTimeout = 1 }) { instance in
            let request = "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"count"
            let stalled = try await RawConnection.open(10, to: instance.port, sending: request)
            #expect(await RawConnection.closedWithin(.seconds(20), stalled) == stalled.count)
            #expect(try await InstanceClient(baseURL: instance.baseURL).send(.get, "/health").status == .ok)
        }
    }

    @Test("A kept-alive connection with nothing more to ask is closed after the idle timeout")
    func idleConnectionClosed() async throws {
        try await Self.withInstance(limits: { $0.connectionIdleTimeout = 3 }) { instance in
            let idle = try await RawConnection.open(5, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await RawConnection.closedWithin(.seconds(20), idle) == idle.count)
            #expect(idle.allSatisfy { $0.received.withLockedValue { $0.hasPrefix("HTTP/1.1 200") } })
        }
    }

    @Test("Past the connection cap a new client waits until a connection closes, and is then served")
    func connectionCap() async throws {
        try await Self.withInstance(limits: { $0.maxConnections = 2 }) { instance in
            // The two held connections are answered once, and so counted by the server, before the third
            // connects: connections that arrive together are accepted in one read, cap or not.
            let held = try await RawConnection.open(2, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            for connection in held { #expect(await connection.firstBytes().hasPrefix("HTTP/1.1 200")) }
            let third = try await RawConnection.open(1, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")[0]
            try await Task.sleep(for: .seconds(1))
            #expect(third.received.withLockedValue { $0 }.isEmpty, "the third connection was served past the cap")
            try await held[0].channel.close()
            #expect(await third.firstBytes().hasPrefix("HTTP/1.1 200"))
            for connection in [held[1], third] { try? await connection.channel.close() }
        }
    }
}

/// A raw TCP connection that sends some bytes and keeps what it receives.
final class RawConnection: Sendable {
    let channel: any Channel
    let received: NIOLockedValueBox<String>
    private let answer: EventLoopPromise<String>

    private init(channel: any Channel, received: NIOLockedValueBox<String>, answer: EventLoopPromise<String>) {
        self.channel = channel
        self.received = received
        self.answer = answer
    }

    /// Opens `count` connections to 127.0.0.1:`port` and writes `text` on each as soon as it is connected, on the
    /// connection's event loop: a write left to this task could come after the timeout under test had run out, on
    /// a machine whose tasks all wait for its two cores (CI saw the idle test's connections closed unanswered).
    static func open(_ count: Int, to port: Int, sending text: String) async throws -> [RawConnection] {
        var connections: [RawConnection] = []
        for _ in 0..<count {
            let received = NIOLockedValueBox("")
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let answer = loop.makePromise(of: String.self)
            let channel = try await ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Collector(sending: text, received: received, answer: answer))
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            connections.append(RawConnection(channel: channel, received: received, answer: answer))
        }
        return connections
    }

    /// How many of `connections` the server has closed within `limit`.
    static func closedWithin(_ limit: Duration, _ connections: [RawConnection]) async -> Int {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, connections.contains(where: { $0.channel.isActive }) {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return connections.filter { !$0.channel.isActive }.count
    }

    /// The first bytes the server sent (empty when it closed without any).
    func firstBytes() async -> String {
        (try? await answer.futureResult.get()) ?? ""
    }

    /// Writes `text` once connected, keeps what arrives, and hands the first bytes (or "" at a close without any)
    /// to `answer`.
    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let text: String
        let received: NIOLockedValueBox<String>
        let answer: EventLoopPromise<String>
        var answered = false

        init(sending text: String, received: NIOLockedValueBox<String>, answer: EventLoopPromise<String>) {
            self.text = text
            self.received = received
            self.answer = answer
        }

        func channelActive(context: ChannelHandlerContext) {
            // A write the server's close beat is what the timeout tests wait for, not a failure.
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let text = String(buffer: unwrapInboundIn(data))
            received.withLockedValue { $0 += text }
            if !answered { answered = true; answer.succeed(text) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !answered { answered = true; answer.succeed("") }
            context.fireChannelInactive()
        }
    }
}
