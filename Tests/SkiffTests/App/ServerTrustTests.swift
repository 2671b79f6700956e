import Foundation
import NIOHTTP1
import NIOSSL
import SkiffCore
import SkiffServer
import SkiffTestCertificates
import Testing
@testable import Skiff

@Suite("ServerTrust: --ca-file for a server with a private certificate authority", .serialized)
struct ServerTrustTests {
    let demoPhone = try! PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)

    /// A login that must succeed gets 30 s: under a full parallel test run a debug server's TLS handshake and
    /// bcrypt have taken longer than 5 s. One refused for trust fails at the handshake, long before either limit.
    private func login(_ server: LiveServer, trust: ServerTrust) async throws -> Session {
        let api = APIClient(baseURL: server.instance.baseURL, trust: trust, tokens: SessionTokenBox(), timeout: .seconds(30),
                            middlewares: [], onUnauthorised: {})
        do {
            let session = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
            await api.shutdown()
            return session
        } catch {
            await api.shutdown()
            throw error
        }
    }

    @Test("the app's client reaches an https server with --ca-file; without it the handshake is refused as not secure")
    func trustsThePrivateAuthority() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await LiveServer.start(tls: TLSFiles(
            certificateChainPath: authority.serverCertificateFile.path, privateKeyPath: authority.serverKeyFile.path
        ))
        #expect(server.instance.baseURL.scheme == "https")

        let trusted = try ServerTrust(certificateAuthorityFile: authority.authorityCertificateFile.path)
        #expect(try await login(server, trust: trusted).user.fullName == DemoCredentials.demo.fullName)
        // Refused at the handshake, and said so: not "can't reach", which would send the person to check the network.
        await #expect(throws: NetworkError.notSecure) { try await login(server, trust: .system) }
        #expect(Formatting().message(for: .notSecure)?.contains("start Skiff with --ca-file") == true)
        await server.stop()
    }

    @Test("the app's client refuses a server that offers only TLS 1.1, or only a CBC suite under TLS 1.2; it reaches one with TLS 1.2 and AES-GCM")
    func refusesOutdatedTLS() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let trust = try ServerTrust(certificateAuthorityFile: authority.authorityCertificateFile.path)
        let chain = try NIOSSLCertificate.fromPEMFile(authority.serverCertificateFile.path)
        let key = try NIOSSLPrivateKey(file: authority.serverKeyFile.path, format: .pem)
        func server(_ offering: (inout TLSConfiguration) -> Void) -> TLSConfiguration {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)
            )
            offering(&configuration)
            return configuration
        }
        let cases: [(name: String, tls: TLSConfiguration, reached: Bool)] = [
            ("TLS 1.1 only", server { $0.minimumTLSVersion = .tlsv1; $0.maximumTLSVersion = .tlsv11 }, false),
            ("AES-CBC only", server {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA]
            }, false),
            ("TLS 1.2 with AES-GCM", server {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]
            }, true),
        ]
        for (name, tls, reached) in cases {
            let recording = try await RecordingHTTPServer.start(tls: tls) { _ in
                .init(status: .unprocessableEntity, headers: [("Content-Type", "application/problem+json")],
                      body: #"{"type":"urn:skiff:problem:test","title":"t","status":422,"detail":"reached"}"#)
            }
            let api = APIClient(baseURL: URL(string: "https://localhost:\(recording.port)")!, trust: trust,
                                tokens: SessionTokenBox(), timeout: .seconds(30), middlewares: [], onUnauthorised: {})
            let error = await #expect(throws: NetworkError.self) {
                _ = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
            }
            await api.shutdown()
            await recording.stop()
            if reached {
                #expect(error == .validation(detail: "reached", fields: []), "\(name)")
                #expect(recording.requests == ["POST /v1/auth/login"], "\(name)")
            } else {
                #expect(error == .notSecure, "\(name)")
                #expect(recording.handshakes == 0 && recording.requests.isEmpty, "\(name)")
            }
        }
    }

    @Test("a --ca-file that cannot be read or holds no certificate is refused with its path")
    func badFile() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let missing = authority.directory.appendingPathComponent("missing.pem").path
        let unreadable = #expect(throws: ServerTrust.LoadError.self) { try ServerTrust(certificateAuthorityFile: missing) }
        #expect(unreadable?.description.hasPrefix("--ca-file \(missing) cannot be read") == true)

        let keyOnly = authority.serverKeyFile.path
        let empty = #expect(throws: ServerTrust.LoadError.self) { try ServerTrust(certificateAuthorityFile: keyOnly) }
        #expect(empty?.description == "--ca-file \(keyOnly) holds no PEM certificate.")
    }
}
