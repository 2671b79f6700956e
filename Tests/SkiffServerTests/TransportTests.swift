import AsyncHTTPClient
import Foundation
import Logging
import NIOSSL
import SkiffTestCertificates
import Testing
@testable import SkiffServer

@Suite("Transport: TLS, and what may listen off loopback")
struct TransportTests {
    /// GET `url` with a client that trusts the system's authorities plus `authority`, waiting at most `limit`.
    /// A request expected to succeed gets 30 s: a debug server's TLS handshake under a full parallel test run once
    /// took more than 5 s (a CI read timeout). Plain HTTP to the TLS port is never answered, only timed out, so a
    /// request expected to fail keeps 5 s.
    /// `offering` narrows what the client offers (versions, cipher suites).
    private func status(
        of url: String, trusting authority: URL?, limit: Int64 = 30, offering: (inout TLSConfiguration) -> Void = { _ in }
    ) async throws -> UInt {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let authority { tls.additionalTrustRoots = [.file(authority.path)] }
        offering(&tls)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(limit), read: .seconds(limit))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(limit))
            try await client.shutdown()
            return response.status.code
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    @Test("With --tls-cert and --tls-key the server answers /health over https to a client trusting its authority; plain http fails")
    func servesTLS() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        var server = try TestServer()
        defer { server.remove() }
        server.configuration.tls = TLSFiles(
            certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: authority.serverKeyFile.path
        )
        let instance = try await SkiffServerInstance.start(server.configuration)
        #expect(instance.baseURL.absoluteString == "https://127.0.0.1:\(instance.port)")

        #expect(try await status(of: "https://127.0.0.1:\(instance.port)/health", trusting: authority.authorityCertificateFile) == 200)
        #expect(try await status(of: "https://localhost:\(instance.port)/health", trusting: authority.authorityCertificateFile) == 200)
        await #expect(throws: (any Error).self) {
            try await status(of: "https://127.0.0.1:\(instance.port)/health", trusting: nil, limit: 5)
        }
        await #expect(throws: (any Error).self) {
            try await status(of: "http://127.0.0.1:\(instance.port)/health", trusting: nil, limit: 5)
        }
        #expect(server.logText.contains("skiff-server listening") && server.logText.contains("https"))
        await instance.stop()
    }

    @Test("The server refuses TLS 1.0, TLS 1.1 and a CBC suite under TLS 1.2; it accepts TLS 1.2 with AES-GCM or ChaCha20, and TLS 1.3")
    func tlsVersionsAndSuites() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        var server = try TestServer()
        defer { server.remove() }
        server.configuration.tls = TLSFiles(
            certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: authority.serverKeyFile.path
        )
        let instance = try await SkiffServerInstance.start(server.configuration)
        let url = "https://127.0.0.1:\(instance.port)/health"
        let trusted = authority.authorityCertificateFile

        let refused: [(String, (inout TLSConfiguration) -> Void)] = [
            ("TLS 1.0", { $0.minimumTLSVersion = .tlsv1; $0.maximumTLSVersion = .tlsv1 }),
            ("TLS 1.1", { $0.minimumTLSVersion = .tlsv11; $0.maximumTLSVersion = .tlsv11 }),
            ("TLS 1.2 with AES-CBC", {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA]
            }),
        ]
        for (name, offering) in refused {
            await #expect(throws: NIOSSLError.self, "\(name) must be refused") {
                _ = try await status(of: url, trusting: trusted, limit: 10, offering: offering)
            }
        }
        let accepted: [(String, (inout TLSConfiguration) -> Void)] = [
            ("TLS 1.2 with AES-GCM", {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]
            }),
            ("TLS 1.2 with ChaCha20-Poly1305", {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256]
            }),
            ("TLS 1.3", { $0.minimumTLSVersion = .tlsv13 }),
        ]
        for (name, offering) in accepted {
            #expect(try await status(of: url, trusting: trusted, offering: offering) == 200, "\(name) must be accepted")
        }
        await instance.stop()
    }

    @Test("Unreadable, empty or mismatched TLS files stop the start with a message naming the file")
    func badTLSFiles() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let missing = authority.directory.appendingPathComponent("missing.pem").path
        let notPEM = authority.directory.appendingPathComponent("not.pem")
        try "hello".write(to: notPEM, atomically: true, encoding: .utf8)
        let cases: [(TLSFiles, String)] = [
            (TLSFiles(certificateChainPath: missing, privateKeyPath: authority.serverKeyFile.path),
             "The TLS certificate \(missing) cannot be read"),
            (TLSFiles(certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: missing),
             "The TLS private key \(missing) cannot be read"),
            (TLSFiles(certificateChainPath: notPEM.path, privateKeyPath: authority.serverKeyFile.path),
             "The TLS certificate \(notPEM.path)"),
            (TLSFiles(certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: notPEM.path),
             "The TLS private key \(notPEM.path) is not a PEM private key"),
            (TLSFiles(certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: authority.unrelatedKeyFile.path),
             "does not belong to the certificate"),
        ]
        for (files, message) in cases {
            let error = #expect(throws: TLSFiles.LoadError.self) { _ = try files.serverConfiguration() }
            #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        }

        var server = try TestServer()
        defer { server.remove() }
        server.configuration.tls = cases[4].0
        await #expect(throws: TLSFiles.LoadError.self) { _ = try await buildApplication(server.configuration) }
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))
    }

    @Test("Plain HTTP off loopback is refused before anything opens, saying how to fix it")
    func plaintextOffLoopback() async throws {
        // A card network fit to serve off loopback, so that only what this test is about is refused.
        var server = try TestServer().usingStripe()
        defer { server.remove() }
        for host in ["0.0.0.0", "::", "192.168.1.10", "wallet.example.com"] {
            server.configuration.host = host
            let message = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
                _ = try server.configuration.checkExposure()
            }?.description ?? ""
            #expect(message.contains("--host \(host) is not loopback"))
            #expect(message.contains("--tls-cert and --tls-key") && message.contains("--insecure-http"))
        }
        server.configuration.host = "0.0.0.0"
        await #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))

        for host in ["127.0.0.1", "127.0.0.2", "::1", "localhost"] {
            server.configuration.host = host
            #expect(try server.configuration.checkExposure() == nil)
        }
    }

    @Test("--insecure-http lets plain HTTP listen off loopback, with a warning at every start")
    func insecureHTTPWarns() async throws {
        // A card network fit to serve off loopback, so that only what this test is about is refused.
        var server = try TestServer().usingStripe()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.allowsInsecureHTTP = true
        let warning = try #require(try server.configuration.checkExposure())
        #expect(warning.contains("plain HTTP on 0.0.0.0"))

        // Built, never run: nothing binds to all interfaces.
        _ = try await buildApplication(server.configuration)
        _ = try await buildApplication(server.configuration)
        let warnings = server.logLines.withLockedValue { $0 }.filter { $0.hasPrefix("warning") && $0.contains(warning) }
        #expect(warnings.count == 2)
    }

    @Test("TLS off loopback needs no --insecure-http and logs no warning")
    func tlsOffLoopback() throws {
        // A card network fit to serve off loopback, so that only what this test is about is refused.
        var server = try TestServer().usingStripe()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.tls = TLSFiles(certificateChainPath: "server.pem", privateKeyPath: "server-key.pem")
        #expect(try server.configuration.checkExposure() == nil)
    }

    @Test("Off loopback, a database that holds the demo account is refused once open, however it got there; without it the server builds")
    func databaseWithDemoOffLoopback() async throws {
        // A card network fit to serve off loopback, so that only what this test is about is refused.
        var server = try TestServer().usingStripe()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.allowsInsecureHTTP = true
        _ = try await buildApplication(server.configuration)  // built, never run: nothing binds to all interfaces

        server.configuration.host = "127.0.0.1"
        #expect(try await SkiffServerSeeder.seedDemo(server.configuration))
        server.configuration.host = "0.0.0.0"
        let message = await #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
            _ = try await buildApplication(server.configuration)
        }?.description ?? ""
        #expect(message == "The database \(server.databasePath) holds the demo account (+1 202 555 0143), whose password is "
            + "published, so it is not served on --host 0.0.0.0, which is not loopback. Serve another --database, or listen "
            + "on 127.0.0.1.")
        server.configuration.host = "127.0.0.1"
        _ = try await buildApplication(server.configuration)
    }

    @Test("The demo account is refused off loopback, TLS or not")
    func demoOffLoopback() async throws {
        var server = try TestServer(seedDemo: true)
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        for tls in [nil, TLSFiles(certificateChainPath: "server.pem", privateKeyPath: "server-key.pem")] {
            server.configuration.tls = tls
            server.configuration.allowsInsecureHTTP = true
            let message = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
                _ = try server.configuration.checkExposure()
            }?.description ?? ""
            #expect(message.contains("Leave out --demo, or listen on 127.0.0.1"))
        }
        server.configuration.tls = nil
        await #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))
        server.configuration.host = "127.0.0.1"
        #expect(try server.configuration.checkExposure() == nil)
    }
}
