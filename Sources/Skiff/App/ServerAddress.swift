import Foundation
import SkiffCore

/// The server named by `--server`: `https://` anywhere, plain `http://` only on this machine (`LoopbackAddress`).
/// Shown and logged without `user:password@`.
public struct ServerAddress: Sendable, CustomStringConvertible {
    /// The address requests go to, as given but for a trailing `/`.
    public let url: URL

    /// Why an address is refused, worded without the address's user information.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(Refusal) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw Refusal(description: "--server needs an http:// or https:// address with a host, such as "
                + "https://wallet.example.com or http://127.0.0.1:8080.")
        }
        if scheme == "http", !LoopbackAddress.isLoopback(host: host) {
            throw Refusal(description: "--server \(url.redactedForLog) is not on this machine, and plain "
                + "http:// would carry your password and session readable on the network. Use https:// (with --ca-file "
                + "when the server's certificate comes from a private certificate authority).")
        }
        // Without its trailing "/", so that no request path starts "//", which the server refuses as not plain.
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        while components?.percentEncodedPath.hasSuffix("/") == true { components?.percentEncodedPath.removeLast() }
        self.url = components?.url ?? url
    }

    /// The address without user information, for logs, messages and the screen.
    public var description: String { url.redactedForLog }

}
