import Foundation
import NIOSSL
import SkiffTLS

/// The PEM files a server speaks TLS with (`--tls-cert`, `--tls-key`).
public struct TLSFiles: Sendable, Equatable {
    /// The server's certificate, followed by any intermediates.
    var certificateChainPath: String
    /// The private key of the first certificate.
    var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    /// Why the files cannot serve TLS, worded for the person who named them.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads both files and checks that the key belongs to the certificate, so that a bad pair stops the
    /// server before it listens rather than failing every handshake. The versions and suites are `TLSPolicy`'s.
    func serverConfiguration() throws(LoadError) -> TLSConfiguration {
        let certificatePEM = try Self.read(certificateChainPath, what: "The TLS certificate")
        let keyPEM = try Self.read(privateKeyPath, what: "The TLS private key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificatePEM)
        } catch {
            throw LoadError(description: "The TLS certificate \(certificateChainPath) is not a PEM certificate.")
        }
        guard !chain.isEmpty else {
            throw LoadError(description: "The TLS certificate \(certificateChainPath) holds no certificate.")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyPEM, format: .pem)
        } catch {
            throw LoadError(description: "The TLS private key \(privateKeyPath) is not a PEM private key (or it is encrypted).")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)
        ).restrictedToSkiffPolicy()
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw LoadError(description: "The TLS private key \(privateKeyPath) does not belong to the certificate \(certificateChainPath).")
        }
        return configuration
    }

    private static func read(_ path: String, what: String) throws(LoadError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw LoadError(description: "\(what) \(path) cannot be read: \(error.localizedDescription)")
        }
    }
}
