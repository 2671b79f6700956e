import SkiffCore

extension SkiffServerConfiguration {
    /// Why a configuration must not start: it would expose plaintext HTTP, the demo account, the SMS outbox's codes
    /// or the simulated card network beyond this machine. Every reason is listed, one a line.
    public struct ExposureRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks, before anything is opened, that plain HTTP, the demo account, the SMS outbox and the simulated card
    /// network stay on loopback (`LoopbackAddress`): plain HTTP elsewhere needs `allowsInsecureHTTP`, the outbox
    /// `allowsSMSOutboxOffLoopback`; the demo account and the simulated card network are refused elsewhere.
    /// Returns the warning to log at this start when plain HTTP is allowed off loopback (saying too when no trusted
    /// proxy is named, so the per-address limits would see one client), else nil.
    public func checkExposure() throws(ExposureRefusal) -> String? {
        guard !LoopbackAddress.isLoopback(host: host) else { return nil }
        var refusals: [String] = []
        if seedDemoDataIfEmpty {
            refusals.append("--demo seeds an account whose password is published, so it is refused on --host \(host), "
                + "which is not loopback. Leave out --demo, or listen on 127.0.0.1.")
        }
        if case .simulated = cardNetwork, cardNetworkOverride == nil {
            refusals.append("--card-network simulated approves any card number without charging it, so it is refused on "
                + "--host \(host), which is not loopback. Give --card-network stripe with the Stripe keys "
                + "(--stripe-publishable-key, --stripe-secret-key-file), or listen on 127.0.0.1.")
        }
        var warning: String?
        if tls == nil {
            if allowsInsecureHTTP {
                let plaintext = "Serving plain HTTP on \(host), which is not loopback (--insecure-http): passwords and "
                    + "tokens cross the network unencrypted unless a TLS proxy in front of this server is the only way to "
                    + "reach it."
                warning = trustedProxies.isEmpty
                    ? plaintext + " No --trusted-proxy is given: behind that proxy every client has the proxy's address, "
                        + "so the per-address limits count all clients as one. Give the proxy's address with --trusted-proxy."
                    : plaintext
            } else {
                refusals.append("--host \(host) is not loopback: plain HTTP there would carry passwords and tokens "
                    + "readable on the network. Give --tls-cert and --tls-key to serve HTTPS, or --insecure-http when a "
                    + "TLS proxy in front of this server is the only way to reach it.")
            }
        }
        if codeSender == nil && !allowsSMSOutboxOffLoopback {
            refusals.append("One-time codes would be appended in clear to the SMS outbox \(smsOutboxPath), a development "
                + "channel, on --host \(host), which is not loopback. Give --sms-outbox-off-loopback to use it there "
                + "anyway, or listen on 127.0.0.1.")
        }
        guard refusals.isEmpty else {
            throw ExposureRefusal(description: refusals.count == 1 ? refusals[0]
                : "This server is refused for \(refusals.count) reasons:\n" + refusals.map { "- " + $0 }.joined(separator: "\n"))
        }
        return warning
    }
}
