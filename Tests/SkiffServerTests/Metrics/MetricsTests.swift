import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import SkiffServer

@Suite("Metrics")
struct MetricsTests {
    /// The port the metrics listener logged, once it listens.
    private func metricsPort(_ server: TestServer) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let line = server.logLines.withLockedValue({ $0.last { $0.contains("skiff-server metrics listening") } }),
               let port = line.firstMatch(of: /port: (\d+)/)?.1 ?? line.firstMatch(of: /"port": (\d+)/)?.1
            {
                return Int(port)!
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("the metrics listener did not start:\n\(server.logText)")
    }

    private func scrape(_ port: Int) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(20))
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        return String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    @Test("GET /metrics on its own port counts requests by operation and status, transfers by outcome, 429s, the pool and the sessions")
    func scrapes() async throws {
        var configured = try TestServer()
        configured.configuration.metrics = .init(port: 0)
        configured.configuration.limits.recipientLookupsPerHour = 1
        let server = configured
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            let alex = try await server.register(client, number: "202 555 0100", name: "Alex Rivera")
            _ = try await server.register(client, number: "202 555 0111", name: "Jordan Rowe Lee")
            let found = try await client.send(.get, "/v1/recipients?countryCode=%2B1&phoneNumber=202-555-0111", token: alex.token)
            let recipient = try #require(found.json["recipientId"] as? String)
            let again = try await client.send(.get, "/v1/recipients?countryCode=%2B1&phoneNumber=202-555-0111", token: alex.token)
            #expect(again.status == .tooManyRequests)
            let body: [String: any Sendable] = ["recipientId": recipient, "amountMinor": 1_250, "currency": "USD"]
            #expect(try await client.send(.post, "/v1/transfers", json: body, token: alex.token, idempotencyKey: "m-1").status == .created)
            #expect(try await client.send(.post, "/v1/transfers", json: body, token: alex.token, idempotencyKey: "m-1").status == .created)
            var tooMuch = body
            tooMuch["amountMinor"] = 150_000
            #expect(try await client.send(.post, "/v1/transfers", json: tooMuch, token: alex.token, idempotencyKey: "m-2").status == .forbidden)
            // The API's port knows nothing of /metrics.
            #expect(try await client.send(.get, "/metrics").status == .notFound)

            let text = try await scrape(try await metricsPort(server))
            #expect(text.contains(#"skiff_http_requests_total{operation="findRecipient",status="200"} 1"#))
            #expect(text.contains(#"skiff_http_requests_total{operation="findRecipient",status="429"} 1"#))
            #expect(text.contains(#"skiff_rate_limit_refusals_total{operation="findRecipient"} 1"#))
            #expect(text.contains(#"skiff_http_requests_total{operation="other",status="404"} 1"#))
            #expect(text.contains(#"skiff_transfers_total{outcome="sent"} 1"#))
            #expect(text.contains(#"skiff_transfers_total{outcome="replayed"} 1"#))
            #expect(text.contains(#"skiff_transfers_total{outcome="step-up-required"} 1"#))
            #expect(text.contains(#"skiff_http_request_duration_seconds_count{operation="sendTransfer"} 3"#))
            #expect(text.contains(#"skiff_http_request_duration_seconds_bucket{operation="sendTransfer",le="+Inf"} 3"#))
            // Both registrations opened a session; the pool is SQLite's readers (one a core, five at most) and its one
            // writer, idle now.
            #expect(text.contains("skiff_sessions_active 2.0"))
            let readers = min(5, ProcessInfo.processInfo.activeProcessorCount)
            #expect(text.contains("skiff_database_connections_max \(readers + 1).0"))
            #expect(text.contains("skiff_database_connections_in_use 0.0"))
            #expect(text.contains("skiff_event_streams_open 0.0"))
            // No secret or number reaches a label.
            #expect(!text.contains(alex.token) && !text.contains("2025550111"))
        }
    }
}
