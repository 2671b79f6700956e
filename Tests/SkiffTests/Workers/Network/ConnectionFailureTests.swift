import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import SkiffCore
import Testing
@testable import Skiff

/// Issue 42, point 9: which failures are known to have sent nothing (no connection was made) and which may have
/// reached the server (the connection broke after the request went), as AsyncHTTPClient 1.37 throws them, measured
/// against real sockets: a closed port is `IOError` ECONNREFUSED (after the 3 s connect timeout), a name found
/// nowhere `NIOConnectionError`, a listener whose queue is full `HTTPClientError.connectTimeout` (Linux drops the
/// connection attempt; macOS refuses it), a server that reads the request and closes `HTTPClientError.remoteConnectionClosed`.
@Suite("Connection failures: nothing sent, or an answer lost", .timeLimit(.minutes(1)))
struct ConnectionFailureTests {
    let phone = try! PhoneNumber.parse(countryCode: "+1", number: DemoCredentials.demo.phoneNumber)

    /// What logging in at `url` failed with, through the app's client (nil: it did not fail).
    func error(loggingInAt url: String) async -> NetworkError? {
        let api = APIClient(baseURL: URL(string: url)!, tokens: SessionTokenBox(), timeout: .seconds(5), middlewares: [], onUnauthorised: {})
        var failure: NetworkError?
        do throws(NetworkError) {
            _ = try await AuthWorker(api: api).login(phone: phone, password: DemoCredentials.demo.password)
        } catch {
            failure = error
        }
        await api.shutdown()
        return failure
    }

    @Test("a server that reads the request and closes the connection lost the answer: .connectionLost, not .unreachable")
    func closedAfterRequest() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.pipeline.addHandler(CloseOnRead()) }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        #expect(await error(loggingInAt: "http://127.0.0.1:\(port)") == .connectionLost)
        try await server.close()
    }

    @Test("a closed port is .unreachable: nothing was sent")
    func refused() async {
        #expect(await error(loggingInAt: "http://127.0.0.1:9") == .unreachable)
    }

    @Test("a name found nowhere is .unreachable")
    func unknownHost() async {
        #expect(await error(loggingInAt: "http://skiff-test.invalid") == .unreachable)
    }

    @Test("a listener whose queue is full (the connection is never made) is .unreachable")
    func connectTimeout() async throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        #expect(bound == 0)
        #expect(listen(fd, 0) == 0)
        var length = size
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        // Connections nobody accepts fill the queue; the next attempt is dropped (or refused).
        var fillers: [Int32] = []
        defer { for filler in fillers { close(filler) } }
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, size) } }
            fillers.append(filler)
        }
        #expect(await error(loggingInAt: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))") == .unreachable)
    }

    @Test("the mapping: failures before a connection are .unreachable; a connection reset or closed after sending is .connectionLost")
    func mapping() {
        #expect(NetworkErrorMapping.map(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .unreachable)
        #expect(NetworkErrorMapping.map(IOError(errnoCode: EHOSTUNREACH, reason: "connect")) == .unreachable)
        #expect(NetworkErrorMapping.map(IOError(errnoCode: ENETUNREACH, reason: "connect")) == .unreachable)
        #expect(NetworkErrorMapping.map(HTTPClientError.connectTimeout) == .unreachable)
        #expect(NetworkErrorMapping.map(HTTPClientError.tlsHandshakeTimeout) == .unreachable)
        #expect(NetworkErrorMapping.map(ChannelError.connectTimeout(.seconds(3))) == .unreachable)
        #expect(NetworkErrorMapping.map(IOError(errnoCode: ECONNRESET, reason: "read")) == .connectionLost)
        #expect(NetworkErrorMapping.map(IOError(errnoCode: EPIPE, reason: "write")) == .connectionLost)
        #expect(NetworkErrorMapping.map(HTTPClientError.remoteConnectionClosed) == .connectionLost)
        #expect(NetworkErrorMapping.map(HTTPClientError.uncleanShutdown) == .connectionLost)
        #expect(NetworkErrorMapping.map(ChannelError.eof) == .connectionLost)
        #expect(NetworkErrorMapping.map(HTTPClientError.readTimeout) == .timeout)
    }
}

/// Reads the first bytes of a request, then closes the connection without answering.
private final class CloseOnRead: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.close(promise: nil)
    }
}
