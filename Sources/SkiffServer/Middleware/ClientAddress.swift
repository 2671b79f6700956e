import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The address of the client behind the current request, as every per-address limit counts it, set by
/// `ClientAddressMiddleware` for every route: an IPv4 address, or an IPv6 address's /64 network (`limitKey`).
///
/// It is the connection's peer. Only when that peer is a configured trusted proxy is `X-Forwarded-For` read, from
/// the right: the first hop that is not itself a trusted proxy is the client (entries further left were written by
/// the client and prove nothing). `Forwarded` is never read, so a client cannot pick the header the proxy does not
/// rewrite.
public enum ClientAddress {
    @TaskLocal static var current = unknown

    /// What a request is counted under when its peer has no IP address (a test without sockets, a Unix socket).
    static let unknown = "unknown"

    /// `text` as an IP address in its canonical form (so `::0001` and `::1` are one), or nil when it is not one.
    public static func normalized(_ text: String) -> String? {
        try? SocketAddress(ipAddress: text.trimmingCharacters(in: .whitespaces), port: 0).ipAddress
    }

    /// What per-address limits count `address` (canonical, from `normalized`) under: an IPv4 address alone (an
    /// IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64 network, such as
    /// `2001:db8:1:2::/64`. One subscriber or host is usually given a whole /64, so counting IPv6 addresses one by
    /// one would hand it 2^64 budgets.
    static func limitKey(_ address: String) -> String {
        guard case .v6(let v6)? = try? SocketAddress(ipAddress: address, port: 0) else { return address }
        var raw = v6.address
        let mappedIPv4: String? = withUnsafeMutableBytes(of: &raw.sin6_addr) { bytes in
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return bytes[12..<16].map(String.init).joined(separator: ".")
            }
            for index in 8..<16 { bytes[index] = 0 }
            return nil
        }
        if let mappedIPv4 { return mappedIPv4 }
        raw.sin6_scope_id = 0
        return SocketAddress(raw, host: "").ipAddress.map { $0 + "/64" } ?? address
    }

    /// The client of a request from `peer` that carried the `X-Forwarded-For` values `forwardedFor`.
    static func resolve(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String {
        guard let peer = peer.flatMap(normalized) else { return unknown }
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard let address = hopAddress(hop) else { return peer }
            if !trustedProxies.contains(address) { return address }
        }
        return peer
    }

    /// One `X-Forwarded-For` entry without its port or brackets (`203.0.113.7:4711`, `[2001:db8::1]:443`).
    private static func hopAddress(_ hop: Substring) -> String? {
        var text = hop.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<end])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])
        }
        return normalized(text)
    }
}

/// Works out the client address of every request (see `ClientAddress`) and makes its `limitKey`
/// `ClientAddress.current` for the rest of the chain, with the connection's close as `RequestConnection.closed`.
struct ClientAddressMiddleware<Context: RemoteAddressRequestContext & ConnectionRequestContext>: RouterMiddleware {
    /// Normalised addresses of the proxies whose `X-Forwarded-For` is believed.
    let trustedProxies: Set<String>

    static var forwardedFor: HTTPField.Name { HTTPField.Name("X-Forwarded-For")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Without trusted proxies the peer is the client, and a socket's address is already in canonical form.
        let address = trustedProxies.isEmpty
            ? context.remoteAddress?.ipAddress ?? ClientAddress.unknown
            : ClientAddress.resolve(
                peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: Self.forwardedFor],
                trustedProxies: trustedProxies
            )
        return try await ClientAddress.$current.withValue(ClientAddress.limitKey(address)) {
            try await RequestConnection.$closed.withValue(context.connectionClosed) { try await next(request, context) }
        }
    }
}

/// A request context that knows when its connection closes.
protocol ConnectionRequestContext {
    /// Completes when the request's connection has closed; nil without one (a test's router).
    var connectionClosed: EventLoopFuture<Void>? { get }
}

/// The current request's connection, for a response that outlives its writes (an event stream): set by
/// `ClientAddressMiddleware`.
enum RequestConnection {
    @TaskLocal static var closed: EventLoopFuture<Void>?
}

/// The request context of every route: Hummingbird's basics and the connection's peer address.
struct SkiffRequestContext: RequestContext, RemoteAddressRequestContext, ConnectionRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let connectionClosed: EventLoopFuture<Void>?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }
}
