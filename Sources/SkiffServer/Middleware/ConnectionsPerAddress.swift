import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections open from each client address, across the server: one client that opens many cannot hold every
/// one of `maxConnections` while other people's requests wait in the backlog (issue 45: one held all 512 and a real
/// request waited 8.1 s). A connection past `SkiffServerLimits.connectionsPerAddress` from one address (an IPv4
/// address, an IPv6 /64: `ClientAddress.limitKey`) is closed as it opens. Trusted proxies are not counted: every
/// client behind them shares their address, and the per-address limits of requests count those clients apart.
final class ConnectionsPerAddress: Sendable {
    private let open = Mutex<[String: Int]>([:])
    let limit: Int
    let exempt: Set<String>
    let logger: Logger

    init(limit: Int, exempt: Set<String>, logger: Logger) {
        self.limit = limit
        self.exempt = exempt
        self.logger = logger
    }

    /// Takes a place for a connection from `address`; false when that address has `limit` open already.
    func enter(_ address: String) -> Bool {
        open.withLock { open in
            guard open[address, default: 0] < limit else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    func leave(_ address: String) {
        open.withLock { open in
            let left = open[address, default: 1] - 1
            open[address] = left > 0 ? left : nil
        }
    }

    /// How many addresses have connections open (for tests).
    var addresses: Int { open.withLock { $0.count } }

    /// A new connection's handler: counts it while it is open, closes it at once past the limit.
    func handler() -> Handler { Handler(counts: self) }

    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        private let counts: ConnectionsPerAddress
        private var counted: String?

        init(counts: ConnectionsPerAddress) {
            self.counts = counts
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { count(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            count(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            release()
        }

        private func count(_ context: ChannelHandlerContext) {
            guard counted == nil, let peer = context.channel.remoteAddress?.ipAddress else { return }
            guard !counts.exempt.contains(peer) else { return }
            let address = ClientAddress.limitKey(peer)
            if counts.enter(address) {
                counted = address
            } else {
                counts.logger.info("connection refused: too many from one address", metadata: ["limit": "\(counts.limit)"])
                context.close(promise: nil)
            }
        }

        private func release() {
            if let counted { counts.leave(counted) }
            counted = nil
        }
    }
}

/// Closes a connection whose client has gone (its side closed) while an event stream is being answered on it. The
/// server keeps half-closed connections open (Hummingbird allows remote half-closure, so that an answer can still be
/// written), and a stream writes nothing until its next event or keep-alive: without this, a dead stream held its place
/// 20-40 s (issue 45). Closed, the connection's close ends the stream and frees its place (`RequestConnection`).
final class EventStreamClientGoneHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private var streaming = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            streaming = head.path?.hasPrefix("/v1/events") == true
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, streaming {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}
