import Foundation
import Testing
@testable import SkiffServer
#if canImport(Glibc)
import Glibc
#endif

/// Which card network a server may start with: the simulated one approves any card number without charging it, so it
/// stays on loopback; Stripe's keys are read from owner-only files. A refused start lists every reason at once.
@Suite("Card network settings and exposure")
struct CardNetworkSettingsTests {
    static let simulatedRefusal = "--card-network simulated approves any card number without charging it, so it is refused on "
        + "--host 0.0.0.0, which is not loopback. Give --card-network stripe with the Stripe keys "
        + "(--stripe-publishable-key, --stripe-secret-key-file), or listen on 127.0.0.1."

    @Test("Off loopback the simulated card network is refused before anything opens, naming it and saying how to fix it; Stripe's, or loopback, starts")
    func simulatedOffLoopback() async throws {
        var server = try TestServer()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        // Served over TLS, codes sent by a real sender: the card network is the only reason left.
        server.configuration.tls = TLSFiles(certificateChainPath: "server.pem", privateKeyPath: "server-key.pem")
        let message = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
            _ = try server.configuration.checkExposure()
        }?.description
        #expect(message == Self.simulatedRefusal)
        for host in ["::", "192.168.1.10", "wallet.example.com"] {
            server.configuration.host = host
            let refused = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try server.configuration.checkExposure() }
            #expect(refused?.description.hasPrefix("--card-network simulated approves any card number") == true, "\(host)")
            #expect(refused?.description.contains("--host \(host), which is not loopback") == true, "\(host)")
        }
        server.configuration.host = "0.0.0.0"
        server.configuration.tls = nil
        server.configuration.allowsInsecureHTTP = true
        await #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))

        for host in ["127.0.0.1", "::1", "localhost"] {
            server.configuration.host = host
            #expect(try server.configuration.checkExposure() == nil, "\(host)")
        }
        server.configuration.host = "0.0.0.0"
        let stripe = try server.usingStripe()
        #expect(try stripe.configuration.checkExposure()?.contains("plain HTTP on 0.0.0.0") == true)
        _ = try await buildApplication(stripe.configuration)  // built, never run: nothing binds to all interfaces
    }

    @Test("The demo account, the simulated network, plain HTTP and the SMS outbox off loopback: every reason is listed, one a line")
    func everyReasonListed() throws {
        var server = try TestServer(seedDemo: true, useOutboxFile: true)
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        let message = try #require(#expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
            _ = try server.configuration.checkExposure()
        }?.description)
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "This server is refused for 4 reasons:")
        #expect(lines.count == 5 && lines.dropFirst().allSatisfy { $0.hasPrefix("- ") }, "\(lines)")
        guard lines.count == 5 else { return }
        #expect(lines[1].hasPrefix("- --demo seeds an account whose password is published"))
        #expect(lines[2] == "- " + Self.simulatedRefusal)
        #expect(lines[3].hasPrefix("- --host 0.0.0.0 is not loopback: plain HTTP there would carry passwords"))
        #expect(lines[4].hasPrefix("- One-time codes would be appended in clear to the SMS outbox"))

        // Each fixed in turn leaves the others; the last one is told as it is, without the list.
        server.configuration.seedDemoDataIfEmpty = false
        let three = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try server.configuration.checkExposure() }
        #expect(three?.description.hasPrefix("This server is refused for 3 reasons:\n- --card-network simulated") == true)
        server.configuration.allowsSMSOutboxOffLoopback = true
        server.configuration.allowsInsecureHTTP = true
        let one = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try server.configuration.checkExposure() }
        #expect(one?.description == Self.simulatedRefusal)
        let stripe = try server.usingStripe()
        #expect(try stripe.configuration.checkExposure() != nil)  // only the plain-HTTP warning is left
    }

    @Test("A network tests put in place of the configured one is not refused off loopback")
    func overrideIsNotTheSimulatedSetting() throws {
        var server = try TestServer().using(SpyCardNetwork())
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.tls = TLSFiles(certificateChainPath: "server.pem", privateKeyPath: "server-key.pem")
        #expect(try server.configuration.checkExposure() == nil)
    }

    @Test("Stripe's secret key and webhook secret are read from owner-only files: open to others, missing or empty, the server does not start")
    func stripeSecretFiles() async throws {
        let server = try TestServer().usingStripe()
        defer { server.remove() }
        guard case .stripe(let settings) = server.configuration.cardNetwork else { throw TestFailure("not Stripe") }
        #expect(server.configuration.cardNetwork.kind == .stripe)
        _ = try await buildApplication(server.configuration)

        chmod(settings.secretKeyFile, 0o644)
        let open = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(open?.description.contains(settings.secretKeyFile) == true && open?.description.contains("644") == true)
        chmod(settings.secretKeyFile, 0o600)

        let webhookFile = try #require(settings.webhookSecretFile)
        try TestServer.writeOwnerOnly("\n", to: webhookFile)
        let empty = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(empty?.description == "The Stripe webhook secret file \(webhookFile) is empty: its first line should hold the secret.")
        try FileManager.default.removeItem(atPath: webhookFile)
        let missing = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(missing?.description == "The Stripe webhook secret file \(webhookFile) does not exist.")

        // Without a webhook secret the server starts, and refuses every webhook.
        let withoutWebhooks = try server.usingStripe(webhookSecret: nil)
        _ = try await buildApplication(withoutWebhooks.configuration)
        #expect(StripeSettings(apiURL: "https://api.stripe.com/", publishableKey: "pk", secretKeyFile: "f", webhookSecretFile: nil).apiURL
            == "https://api.stripe.com")
        #expect(StripeSettings(publishableKey: "pk", secretKeyFile: "f", webhookSecretFile: nil).apiURL == StripeSettings.defaultAPIURL)
    }
}
