import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SkiffCore
import Testing
@testable import SkiffServer

extension TestClientProtocol {
    /// `POST /v1/webhooks/stripe` with `body` as sent and `signature` as `Stripe-Signature` (none when nil).
    func sendWebhook(_ body: [UInt8], signature: String?) async throws -> Reply {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let signature { headers[HTTPField.Name("Stripe-Signature")!] = signature }
        let response = try await executeRequest(uri: "/v1/webhooks/stripe", method: .post, headers: headers, body: ByteBuffer(bytes: body))
        return Reply(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }
}

/// `POST /v1/webhooks/stripe`: a signed event settles the pending top-up of the payment it names, by asking the
/// network where the payment stands; each event once; a bad or old signature is refused and settles nothing.
@Suite("Card network webhooks", .serialized)
struct TopUpWebhookTests {
    static let secret = "whsec_test_webhooks"

    /// A server on `store` whose network checks webhooks with `secret`, with Sam, a `…3184` card and a pending top-up
    /// of $70.00 (key "w"); `body` gets the top-up's id and its payment's id too.
    private func withPendingTopUp(
        _ store: TestStore,
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, SpyCardNetwork, Registered, String, String) async throws -> Void
    ) async throws {
        let spy = SpyCardNetwork(webhookSecret: Self.secret)
        let base = try TestServer().using(spy)
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let (sam, card) = try await server.userWithCard(client, cardNumber: "4000002760003184")
                let started = try await server.topUp(client, sam.token, card: card, 7_000, key: "w")
                guard started.status == .accepted, let id = started.json["id"] as? String, let paymentID = spy.payments.first else {
                    throw TestFailure("the top-up answered \(started.status): \(started.body)")
                }
                try await body(server, client, spy, sam, id, paymentID)
            }
        }
    }

    private func signed(_ body: [UInt8], _ server: TestServer, secret: String = Self.secret, offset: TimeInterval = 0) -> String {
        StripeSignature.header(body: body, secret: secret, at: server.clock.now().addingTimeInterval(offset))
    }

    @Test("A signed event about a confirmed payment completes its pending top-up and credits it; the same event again, or another about it, changes nothing", arguments: TestStore.allCases)
    func completesOnce(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, id, paymentID in
            #expect(spy.authenticate(paymentID: paymentID, success: true))
            let asked = spy.count(.payment)
            let event = StripeEvent.paymentIntent(id: "evt_ok_1", paymentID: paymentID)
            let delivered = try await client.sendWebhook(event, signature: signed(event, server))
            #expect(delivered.status == .ok)
            // The webhook asked the network and settled it: no read of the top-up was needed.
            #expect(spy.count(.payment) == asked + 1)
            let stored = try #require(try await server.storedTopUp(userID: sam.userID, key: "w"))
            #expect(stored.status == .completed && stored.transferID != nil && stored.authorizationID == paymentID)
            #expect(try await server.balance(client, sam.token) == 107_000)
            #expect(try await server.withRepositories { try await $0.topUps.handledEvent(id: "evt_ok_1") })
            #expect(server.logText.contains("top-up settled by the network's webhook"))

            let again = try await client.sendWebhook(event, signature: signed(event, server))
            #expect(again.status == .ok)
            let other = StripeEvent.paymentIntent(id: "evt_ok_2", type: "charge.succeeded", paymentID: paymentID)
            #expect(try await client.sendWebhook(other, signature: signed(other, server)).status == .ok)
            // Neither asked the network: the first is known, the second's top-up is settled.
            #expect(spy.count(.payment) == asked + 1)
            let read = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
            #expect(read.json["status"] as? String == "completed" && read.json["transferId"] as? String == stored.transferID)
            #expect(spy.count(.payment) == asked + 1)
            #expect(try await server.balance(client, sam.token) == 107_000)
            #expect(try await server.topUpLines(client, sam.token).count == 1)
            #expect(spy.count(.makePayment) == 1 && spy.confirmedAtNetwork == 1)
        }
    }

    @Test("The webhook, reads of the top-up and replays of its key arriving at once credit it once", arguments: TestStore.allCases)
    func webhookReadAndReplayAtOnce(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, id, paymentID in
            #expect(spy.authenticate(paymentID: paymentID, success: true))
            let event = StripeEvent.paymentIntent(id: "evt_race", paymentID: paymentID)
            let signature = signed(event, server)
            let cardID = try #require(try await server.storedTopUp(userID: sam.userID, key: "w")?.cardID)
            let statuses = try await withThrowingTaskGroup(of: (String, UInt).self) { group in
                for index in 0..<9 {
                    group.addTask {
                        switch index % 3 {
                        case 0: ("webhook", UInt(try await client.sendWebhook(event, signature: signature).status.code))
                        case 1: ("read", UInt(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).status.code))
                        default: ("replay", UInt(try await server.topUp(client, sam.token, card: cardID, 7_000, key: "w").status.code))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.1 == 200 || ($0.0 == "replay" && [201, 202].contains($0.1)) }, "\(statuses)")
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).json["status"] as? String == "completed")
            #expect(try await server.balance(client, sam.token) == 107_000)
            #expect(try await server.topUpLines(client, sam.token).count == 1)
            #expect(spy.count(.makePayment) == 1 && spy.confirmedAtNetwork == 1)
        }
    }

    @Test("A wrong secret, an old or future time, another body, a malformed or missing signature: 400, nothing settled or kept; the genuine event then settles it", arguments: TestStore.allCases)
    func badSignatures(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, id, paymentID in
            #expect(spy.authenticate(paymentID: paymentID, success: true))
            let event = StripeEvent.paymentIntent(id: "evt_sig", paymentID: paymentID)
            let other = StripeEvent.paymentIntent(id: "evt_sig", paymentID: "pi_sim_other_4242")
            let asked = spy.count(.payment)
            let refusals: [(String, String?)] = [
                ("wrong secret", signed(event, server, secret: "whsec_someone_else")),
                ("older than 300 s", signed(event, server, offset: -301)),
                ("newer than 300 s", signed(event, server, offset: 301)),
                ("another body", signed(other, server)),
                ("no time", "v1=" + StripeSignature.v1(body: event, secret: Self.secret, time: Int(server.clock.now().timeIntervalSince1970))),
                ("garbage", "not a signature"),
                ("missing", nil),
            ]
            for (what, signature) in refusals {
                let reply = try await client.sendWebhook(event, signature: signature)
                #expect(reply.status == .badRequest, "\(what): \(reply.status)")
                #expect(reply.contentType == "application/problem+json", "\(what)")
            }
            #expect(spy.count(.payment) == asked)
            #expect(try await server.storedTopUp(userID: sam.userID, key: "w")?.status == .pending)
            #expect(try await server.withRepositories { try await $0.topUps.handledEvent(id: "evt_sig") } == false)
            #expect(try await server.balance(client, sam.token) == 100_000)
            // Within the tolerance, late or early, it is taken.
            let late = try await client.sendWebhook(event, signature: signed(event, server, offset: -290))
            #expect(late.status == .ok)
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).json["status"] as? String == "completed")
            #expect(try await server.balance(client, sam.token) == 107_000)
        }
    }

    @Test("An event about a payment its holder refused declines the pending top-up; nothing moves", arguments: TestStore.allCases)
    func declinesOnce(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, id, paymentID in
            #expect(spy.authenticate(paymentID: paymentID, success: false))
            let event = StripeEvent.paymentIntent(id: "evt_fail", type: "payment_intent.payment_failed", paymentID: paymentID)
            #expect(try await client.sendWebhook(event, signature: signed(event, server)).status == .ok)
            let stored = try #require(try await server.storedTopUp(userID: sam.userID, key: "w"))
            #expect(stored.status == .declined && stored.declineReason == CardDeclineReason.notConfirmed.rawValue)
            let read = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
            #expect(read.json["status"] as? String == "declined" && read.json["declineReason"] as? String == "not-confirmed")
            #expect(try await server.balance(client, sam.token) == 100_000)
        }
    }

    @Test("An event about a payment that is not a top-up's, or about no payment, is taken (200) and kept, and changes nothing", arguments: TestStore.allCases)
    func unrelatedEvents(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, _, _ in
            let asked = spy.count(.payment)
            let unknown = StripeEvent.paymentIntent(id: "evt_elsewhere", paymentID: "pi_sim_not_ours_4242")
            #expect(try await client.sendWebhook(unknown, signature: signed(unknown, server)).status == .ok)
            let customer = Array(try JSONSerialization.data(withJSONObject: [
                "id": "evt_customer", "type": "customer.created", "data": ["object": ["id": "cus_1", "object": "customer"]],
            ]))
            #expect(try await client.sendWebhook(customer, signature: signed(customer, server)).status == .ok)
            #expect(spy.count(.payment) == asked)
            let handled = try await server.withRepositories { repositories in
                [try await repositories.topUps.handledEvent(id: "evt_elsewhere"), try await repositories.topUps.handledEvent(id: "evt_customer")]
            }
            #expect(handled == [true, true])
            #expect(try await server.storedTopUp(userID: sam.userID, key: "w")?.status == .pending)
            #expect(try await server.balance(client, sam.token) == 100_000)
        }
    }

    @Test("An event is taken as Stripe writes it, numbers with fractions and exponents included (an exchange rate, a percentage)", arguments: TestStore.allCases)
    func eventsAsStripeWritesThem(store: TestStore) async throws {
        try await withPendingTopUp(store) { server, client, spy, sam, _, paymentID in
            #expect(spy.authenticate(paymentID: paymentID, success: true))
            // The signature is over these bytes: the API's rule for request bodies (amounts in whole digits) is not
            // the network's, and refusing its events would have Stripe retry them, then turn the webhook off.
            let text = "{\"id\":\"evt_fraction\",\"object\":\"event\",\"type\":\"payment_intent.succeeded\",\"data\":{\"object\":{\"id\":\""
                + paymentID + "\",\"object\":\"payment_intent\",\"status\":\"succeeded\",\"exchange_rate\":1.0823,"
                + "\"application_fee_percent\":2.5e0}},\"livemode\":false}"
            let body = Array(text.utf8)
            let reply = try await client.sendWebhook(body, signature: signed(body, server))
            #expect(reply.status == .ok, "\(reply.body)")
            #expect(try await server.storedTopUp(userID: sam.userID, key: "w")?.status == .completed)
            #expect(try await server.balance(client, sam.token) == 107_000)
        }
    }

    @Test("A network that sends no webhooks (the simulated one) refuses every webhook with 400")
    func simulatedRefusesWebhooks() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let event = StripeEvent.paymentIntent(id: "evt_sim", paymentID: "pi_sim_x_4242")
            let reply = try await client.sendWebhook(event, signature: StripeSignature.header(body: event, secret: Self.secret, at: server.clock.now()))
            #expect(reply.status == .badRequest)
        }
    }
}
