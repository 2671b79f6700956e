import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request (slowloris): the first request's head must be
/// whole within `requestHeadTimeout` of connecting (a TLS handshake included), and every request's body within
/// `requestBodyTimeout` of its head. Hummingbird's idle timeout (`connectionIdleTimeout`) covers the wait for a
/// later request on a kept-alive connection, and `maxConnections` caps how many are open at once.
final class RequestReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let headTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var sawFirstHead = false

    init(limits: SkiffServerLimits) {
        headTimeout = .timeInterval(limits.requestHeadTimeout)
        bodyTimeout = .timeInterval(limits.requestBodyTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitFirstHead(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitFirstHead(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            sawFirstHead = true
            closeUnlessDone(within: bodyTimeout, context)
        case .body:
            break
        case .end:
            cancelDeadline()
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    private func awaitFirstHead(_ context: ChannelHandlerContext) {
        guard !sawFirstHead, deadline == nil else { return }
        closeUnlessDone(within: headTimeout, context)
    }

    private func closeUnlessDone(within timeout: TimeAmount, _ context: ChannelHandlerContext) {
        cancelDeadline()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            self?.deadline = nil
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}

extension TimeAmount {
    /// `seconds` rounded to the nanosecond.
    static func timeInterval(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64((seconds * 1_000_000_000).rounded()))
    }
}
