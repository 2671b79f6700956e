import Crypto
import Foundation
import X509

/// A certificate authority made for one test run, and the server certificate it issued for 127.0.0.1,
/// ::1 and localhost, written as PEM files in a fresh temporary folder.
public struct TestCertificateAuthority: Sendable {
    /// The folder holding the files; `remove()` deletes it.
    public let directory: URL
    /// The authority's certificate: what a client trusts (`--ca-file`).
    public let authorityCertificateFile: URL
    /// The server's certificate, issued by the authority (`--tls-cert`).
    public let serverCertificateFile: URL
    /// The server's private key (`--tls-key`).
    public let serverKeyFile: URL
    /// A key that belongs to no certificate here, for a mismatched pair.
    public let unrelatedKeyFile: URL

    /// Makes a new authority and server certificate, valid from an hour ago for a day.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        authorityCertificateFile = directory.appendingPathComponent("ca.pem")
        serverCertificateFile = directory.appendingPathComponent("server.pem")
        serverKeyFile = directory.appendingPathComponent("server-key.pem")
        unrelatedKeyFile = directory.appendingPathComponent("unrelated-key.pem")

        let now = Date()
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("Skiff test authority") }
        let authority = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PrivateKey(authorityKey).publicKey,
            notValidBefore: now - 3600, notValidAfter: now + 86_400,
            issuer: authorityName, subject: authorityName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PrivateKey(serverKey).publicKey,
            notValidBefore: now - 3600, notValidAfter: now + 86_400,
            issuer: authorityName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(.init(contentBytes: [127, 0, 0, 1])),
                    .ipAddress(.init(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )

        try authority.serializeAsPEM().pemString.write(to: authorityCertificateFile, atomically: true, encoding: .utf8)
        try server.serializeAsPEM().pemString.write(to: serverCertificateFile, atomically: true, encoding: .utf8)
        try serverKey.pemRepresentation.write(to: serverKeyFile, atomically: true, encoding: .utf8)
        try P256.Signing.PrivateKey().pemRepresentation.write(to: unrelatedKeyFile, atomically: true, encoding: .utf8)
    }

    /// Deletes the folder and every file in it.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
