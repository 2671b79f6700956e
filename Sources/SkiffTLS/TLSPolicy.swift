import NIOSSL

/// The TLS Skiff speaks, as a server and as a client (of a Skiff server or of PostgreSQL): TLS 1.3, or TLS 1.2
/// with an ECDHE key exchange and an AEAD cipher (AES-GCM or ChaCha20-Poly1305). TLS 1.0 and 1.1, CBC and RSA key
/// exchange are refused. TLS 1.3's suites are all AEAD and BoringSSL does not let them be chosen.
public enum TLSPolicy {
    /// The lowest version either side negotiates.
    static let minimumVersion: TLSVersion = .tlsv12

    /// The TLS 1.2 cipher suites offered and accepted, strongest first.
    static let tls12CipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    ]
}

extension TLSConfiguration {
    /// This configuration limited to `TLSPolicy`'s versions and cipher suites.
    public func restrictedToSkiffPolicy() -> TLSConfiguration {
        var configuration = self
        configuration.minimumTLSVersion = TLSPolicy.minimumVersion
        configuration.cipherSuiteValues = TLSPolicy.tls12CipherSuites
        return configuration
    }
}
