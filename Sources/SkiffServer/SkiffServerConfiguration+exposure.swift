import SkiffCore

extension SkiffServerConfiguration {
    /// Why a configuration must not start: it would expose plaintext HTTP or the demo account beyond this machine.
    public struct ExposureRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks, before anything is opened, that plain HTTP and the demo account stay on loopback
    /// (`LoopbackAddress`): plain HTTP elsewhere needs `allowsInsecureHTTP`, the demo account is refused elsewhere.
    /// Returns the warning to log at this start when plain HTTP is allowed off loopback (saying too when no trusted
    /// proxy is named, so the per-address limits would see one client), else nil.
    public func checkExposure() throws(ExposureRefusal) -> String? {
        guard !LoopbackAddress.isLoopback(host: host) else { return nil }
        if seedDemoDataIfEmpty {
            throw ExposureRefusal(description: "--demo seeds an account whose password is published, so it is refused on "
                + "--host \(host), which is not loopback. Leave out --demo, or listen on 127.0.0.1.")
        }
        guard tls == nil else { return nil }
        guard allowsInsecureHTTP else {
            throw ExposureRefusal(description: "--host \(host) is not loopback: plain HTTP there would carry passwords and "
                + "tokens readable on the network. Give --tls-cert and --tls-key to serve HTTPS, or --insecure-http "
                + "when a TLS proxy in front of this server is the only way to reach it.")
        }
        let plaintext = "Serving plain HTTP on \(host), which is not loopback (--insecure-http): passwords and tokens cross "
            + "the network unencrypted unless a TLS proxy in front of this server is the only way to reach it."
        guard trustedProxies.isEmpty else { return plaintext }
        return plaintext + " No --trusted-proxy is given: behind that proxy every client has the proxy's address, so "
            + "the per-address limits count all clients as one. Give the proxy's address with --trusted-proxy."
    }
}
