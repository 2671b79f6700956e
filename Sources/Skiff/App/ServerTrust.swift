import Foundation
import NIOSSL
import SkiffTLS

/// The certificate authorities the app trusts for an `https://` server: the system's, plus any from `--ca-file`.
public struct ServerTrust: Sendable {
    /// Authorities trusted besides the system's.
    let additionalAuthorities: [NIOSSLCertificate]

    /// The system's authorities only.
    public static let system = ServerTrust(additionalAuthorities: [])

    /// Why a `--ca-file` cannot be used, worded for the person who named it.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    private init(additionalAuthorities: [NIOSSLCertificate]) {
        self.additionalAuthorities = additionalAuthorities
    }

    /// The system's authorities and every certificate in the PEM file at `path`.
    public init(certificateAuthorityFile path: String) throws(LoadError) {
        let pem: Data
        do {
            pem = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LoadError(description: "--ca-file \(path) cannot be read: \(error.localizedDescription)")
        }
        let certificates = try? NIOSSLCertificate.fromPEMBytes([UInt8](pem))
        guard let certificates, !certificates.isEmpty else {
            throw LoadError(description: "--ca-file \(path) holds no PEM certificate.")
        }
        additionalAuthorities = certificates
    }

    /// The client TLS settings: full verification of chain and host name against these authorities, with
    /// `TLSPolicy`'s versions and suites.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration().restrictedToSkiffPolicy()
        if !additionalAuthorities.isEmpty {
            configuration.additionalTrustRoots = [.certificates(additionalAuthorities)]
        }
        return configuration
    }
}
