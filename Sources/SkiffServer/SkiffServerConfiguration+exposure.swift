import SkiffCore

extension SkiffServerConfiguration {
    /// Why a configuration must not start: it would expose plaintext HTTP, the demo account or the SMS outbox's
    /// codes beyond this machine.
    public struct ExposureRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks, before anything is opened, that plain HTTP, the demo account and the SMS outbox stay on loopback
    /// (`LoopbackAddress`): plain HTTP elsewhere needs `allowsInsecureHTTP`, the outbox `allowsSMSOutboxOffLoopback`,
    /// and the demo account is refused elsewhere.
    /// Returns the warning to log at this start when plain HTTP is allowed off loopback (saying too when no trusted
    /// proxy is named, so the per-address limits would see one client), else nil.
    public func checkExposure() throws(ExposureRefusal) -> String? {
        guard !LoopbackAddress.isLoopback(host: host) else { return nil }
        if seedDemoDataIfEmpty {
            throw ExposureRefusal(description: "--demo seeds an account whose password is published, so it is refused on "
                + "--host \(host), which is not loopback. Leave out --demo, or listen on 127.0.0.1.")
        }
        var warning: String?
        if tls == nil {
            guard allowsInsecureHTTP else {
                throw ExposureRefusal(description: "--host \(host) is not loopback: plain HTTP there would carry passwords and "
                    + "tokens readable on the network. Give --tls-cert and --tls-key to serve HTTPS, or --insecure-http "
                    + "when a TLS proxy in front of this server is the only way to reach it.")
            }
            let plaintext = "Serving plain HTTP on \(host), which is not loopback (--insecure-http): passwords and tokens "
                + "cross the network unencrypted unless a TLS proxy in front of this server is the only way to reach it."
            warning = trustedProxies.isEmpty
                ? plaintext + " No --trusted-proxy is given: behind that proxy every client has the proxy's address, so "
                    + "the per-address limits count all clients as one. Give the proxy's address with --trusted-proxy."
                : plaintext
        }
        if codeSender == nil && !allowsSMSOutboxOffLoopback {
            throw ExposureRefusal(description: "One-time codes would be appended in clear to the SMS outbox \(smsOutboxPath), "
                + "a development channel, on --host \(host), which is not loopback. Give --sms-outbox-off-loopback "
                + "to use it there anyway, or listen on 127.0.0.1.")
        }
        return warning
    }
}
