import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SkiffServer

/// Issue 23, point 7: per-address limits count an IPv6 client by its /64, texts are capped per country code, the
/// per-address buckets stay bounded under address churn, and a proxy without `--trusted-proxy` is warned about.
@Suite("Address and country limits")
struct AddressLimitsTests {
    @Test("Per-address limits count IPv4 alone and IPv6 by its /64", arguments: [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("2001:db8::1", "2001:db8::/64"),
        ("::1", "::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("unknown", "unknown"),
    ])
    func limitKey(address: String, key: String) {
        #expect(ClientAddress.limitKey(address) == key)
    }

    @Test("One IPv6 /64 shares one auth bucket: 20 requests from 20 of its addresses, then 429; another /64 is served")
    func ipv6NetworkSharesBucket() async throws {
        let server = try TestServer().trustingProxy("127.0.0.1")
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            for index in 1...20 {
                let reply = try await client.badLogin(forwardedFor: "[2001:db8:1:2::\(String(index, radix: 16))]:443")
                #expect(reply.status == .unprocessableContent)
            }
            let limited = try await client.badLogin(forwardedFor: "2001:db8:1:2:abcd::99")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.problemType == "urn:skiff:problem:too-many-requests")
            #expect(try await client.badLogin(forwardedFor: "2001:db8:1:3::1").status == .unprocessableContent)
        }
    }

    @Test("One IPv6 /64 shares one hourly code cap, whatever its addresses")
    func ipv6NetworkSharesCodeCap() async throws {
        let server = try TestServer().trustingProxy("127.0.0.1")
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            for index in 0..<20 {
                let reply = try await client.forgot(number: "20255501\(10 + index)", forwardedFor: "2001:db8:7:7::\(index + 1)")
                #expect(reply.status == .accepted)
                server.clock.advance(by: 3)
            }
            let capped = try await client.forgot(number: "2025550199", forwardedFor: "2001:db8:7:7:1:2:3:4")
            #expect(capped.status == .tooManyRequests)
            #expect(capped.problemType == "urn:skiff:problem:code-limit-reached")
            #expect(try await client.forgot(number: "2025550199", forwardedFor: "2001:db8:7:8::1").status == .accepted)
        }
    }

    @Test("Texts per country code are capped per hour in the database; other countries are not held up",
          arguments: TestStore.allCases)
    func codesPerCountry(store: TestStore) async throws {
        try await TestServer.withRouter(on: store, limits: { $0.codesPerCountryPerHour = 3 }) { server, client in
            let start = server.clock.now()
            for number in ["2025550101", "2025550102", "2025550103"] {
                let reply = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": number])
                #expect(reply.status == .accepted)
                server.clock.advance(by: 60)
            }
            let capped = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": "2025550104", "fullName": "Sam", "password": Seeds.password],
                idempotencyKey: UUID().uuidString
            )
            #expect(capped.status == .tooManyRequests)
            #expect(capped.problemType == "urn:skiff:problem:code-limit-reached")
            #expect(capped.headers[.retryAfter] == "\(3600 - 3 * 60)")
            let uk = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+44", "phoneNumber": "7700900123"])
            #expect(uk.status == .accepted)

            server.clock.advance(by: start.addingTimeInterval(3600).timeIntervalSince(server.clock.now()))
            let again = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550104"])
            #expect(again.status == .accepted)
        }
    }

    @Test("Address churn keeps the auth buckets within their capacity")
    func churnStaysBounded() {
        let clock = TestClock()
        let buckets = AuthRequestBuckets(limits: SkiffServerLimits(), clock: clock, capacity: 100)
        for index in 0..<10_000 {
            #expect(buckets.take(address: "198.51.\(index / 256).\(index % 256)") == nil)
            #expect(buckets.trackedAddresses <= 100)
        }
    }

    @Test("An empty bucket stays empty while fewer new addresses than a generation come and go")
    func emptyBucketSurvivesChurn() {
        let clock = TestClock()
        let buckets = AuthRequestBuckets(limits: SkiffServerLimits(), clock: clock, capacity: 100)
        for _ in 1...20 { #expect(buckets.take(address: "203.0.113.1") == nil) }
        #expect(buckets.take(address: "203.0.113.1") == 3)
        for index in 0..<49 { _ = buckets.take(address: "198.51.100.\(index)") }
        #expect(buckets.take(address: "203.0.113.1") != nil)
        for index in 0..<49 { _ = buckets.take(address: "198.51.101.\(index)") }
        #expect(buckets.take(address: "203.0.113.1") != nil)
    }

    @Test("--insecure-http off loopback without --trusted-proxy warns that every client would share the proxy's limits")
    func insecureWithoutTrustedProxyWarns() async throws {
        var server = try TestServer().usingStripe()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.allowsInsecureHTTP = true
        let warning = try #require(try server.configuration.checkExposure())
        #expect(warning.contains("No --trusted-proxy is given"))
        _ = try await buildApplication(server.configuration)
        #expect(server.logLines.withLockedValue { $0 }.contains { $0.hasPrefix("warning") && $0.contains("--trusted-proxy") })

        server.configuration.trustedProxies = ["10.0.0.2"]
        let proxied = try #require(try server.configuration.checkExposure())
        #expect(!proxied.contains("--trusted-proxy"))
    }
}
