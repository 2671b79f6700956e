import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import SkiffCore
import Testing
@testable import SkiffServer

/// localstripe (a stateful fake of Stripe's API, `pip install localstripe`), from `SKIFF_TEST_LOCALSTRIPE_URL`
/// (`http://127.0.0.1:PORT`; CI starts one with scripts/run-localstripe.py).
enum TestLocalstripe {
    static var url: String? {
        ProcessInfo.processInfo.environment["SKIFF_TEST_LOCALSTRIPE_URL"].flatMap { url in
            url.isEmpty ? nil : (url.hasSuffix("/") ? String(url.dropLast()) : url)
        }
    }

    /// Runs `body` with localstripe's URL. Without `SKIFF_TEST_LOCALSTRIPE_URL` this fails when `CI=true`, and
    /// otherwise records a known issue saying the localstripe case did not run, as `TestPostgres` does.
    static func with(_ body: (Localstripe) async throws -> Void) async throws {
        guard let url else {
            if TestPostgres.isCI {
                throw TestFailure("CI=true but SKIFF_TEST_LOCALSTRIPE_URL is not set: the localstripe cases need one")
            }
            withKnownIssue {
                throw TestFailure("Not run: SKIFF_TEST_LOCALSTRIPE_URL is not set (.ci/run starts a localstripe and sets it)")
            }
            return
        }
        try await body(Localstripe(url: url))
    }
}

/// What a test does at localstripe itself: what Stripe.js, the card's bank and Stripe's dashboard would.
struct Localstripe: Sendable {
    let url: String
    /// Any `sk_…` is taken; the server gets the same in its secret key file (`TestServer.usingStripe`).
    let secretKey = "sk_test_skiff"
    let publishableKey = "pk_test_skiff"

    /// A call to localstripe; `secret` sends the secret key.
    func send(
        _ method: NIOHTTP1.HTTPMethod, _ path: String, form: KeyValuePairs<String, String>? = nil, secret: Bool = true
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: (path.hasPrefix("http") ? "" : url) + path)
        request.method = method
        if secret { request.headers.add(name: "Authorization", value: "Bearer " + secretKey) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormBody.encode(form)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return Reply(status: HTTPResponse.Status(code: Int(response.status.code)), headers: [:], body: String(buffer: body))
    }

    /// The card's token, as Stripe.js gets it with the publishable key (no secret).
    func token(number: String) async throws -> String {
        let reply = try await send(.POST, "/v1/tokens", form: FormBody.card(key: publishableKey, number: number), secret: false)
        guard reply.status == .ok, let id = reply.json["id"] as? String else {
            throw TestFailure("localstripe's tokens answered \(reply.status): \(reply.body)")
        }
        return id
    }

    func paymentIntent(_ id: String) async throws -> Reply {
        try await send(.GET, "/v1/payment_intents/\(id)")
    }

    /// The card's holder answers their bank's question (3-D Secure) at `actionURL`, as the page there would.
    func authenticate(actionURL: String, paymentID: String, success: Bool) async throws -> Reply {
        let secret = try #require(try await paymentIntent(paymentID).json["client_secret"] as? String)
        return try await send(
            .POST, actionURL, form: ["key": publishableKey, "client_secret": secret, "success": success ? "true" : "false"],
            secret: false
        )
    }

    /// Makes localstripe sign every event with `secret` and send it to `target` (1 s after it), as webhook `name`.
    func registerWebhook(_ name: String, target: String, secret: String) async throws {
        let reply = try await send(.POST, "/_config/webhooks/\(name)", form: [
            "url": target, "secret": secret, "events[]": "payment_intent.succeeded", "events[]": "payment_intent.payment_failed",
        ], secret: false)
        guard reply.status == .ok else { throw TestFailure("registering webhook \(name) answered \(reply.status): \(reply.body)") }
    }

    /// localstripe cannot forget a webhook: it is pointed at nothing and listens to no event.
    func unregisterWebhook(_ name: String) async {
        _ = try? await send(.POST, "/_config/webhooks/\(name)", form: [
            "url": "http://127.0.0.1:9/", "secret": "unused", "events[]": "none.none",
        ], secret: false)
    }

    /// The event of `type` about the PaymentIntent `paymentID`, as localstripe made it.
    func event(type: String, paymentID: String) async throws -> [String: Any]? {
        let page = try await send(.GET, "/v1/events?type=\(type)&limit=100")
        return (page.json["data"] as? [[String: Any]] ?? []).first { event in
            ((event["data"] as? [String: Any])?["object"] as? [String: Any])?["id"] as? String == paymentID
        }
    }
}

/// Skiff's server on Stripe's API, here localstripe's: cards added from tokens made at the network, payments made and
/// confirmed with the secret key, 3-D Secure settled by the signed webhook or by a read, each top-up credited once.
@Suite("Card network: Stripe's API on localstripe", .timeLimit(.minutes(3)))
struct LocalstripeTests {
    static let webhookSecret = "whsec_skiff_localstripe"

    /// A live server (a real socket, for localstripe's webhooks) on localstripe, with the machine's clock (a webhook's
    /// signed time is localstripe's); `webhooks` webhooks registered at localstripe to it, each under a name of its
    /// own (two deliver each event twice), forgotten afterwards. Without webhooks, the server has no webhook secret.
    private func withServer(
        webhooks: Int, _ body: @escaping @Sendable (TestServer, any TestClientProtocol, Localstripe) async throws -> Void
    ) async throws {
        try await TestLocalstripe.with { stripe in
            var server = try TestServer().usingStripe(apiURL: stripe.url, webhookSecret: webhooks > 0 ? Self.webhookSecret : nil)
            defer { server.remove() }
            server.configuration.clock = SystemClock()
            let configured = server
            let app = try await buildApplication(configured.configuration)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let names = (0..<webhooks).map { _ in "skiff-test-\(UUID().uuidString.lowercased())" }
                for name in names {
                    try await stripe.registerWebhook(name, target: "http://127.0.0.1:\(port)/v1/webhooks/stripe", secret: Self.webhookSecret)
                }
                do {
                    try await body(configured, client, stripe)
                } catch {
                    for name in names { await stripe.unregisterWebhook(name) }
                    throw error
                }
                for name in names { await stripe.unregisterWebhook(name) }
            }
        }
    }

    /// Registers a user (a number of its own) and adds the card `number` tokenized at localstripe.
    private func userWithCard(
        _ server: TestServer, _ client: any TestClientProtocol, _ stripe: Localstripe, number: String
    ) async throws -> (user: Registered, cardID: String) {
        let user = try await server.register(client)
        let added = try await server.addCard(client, token: user.token, cardToken: try await stripe.token(number: number))
        guard added.status == .created, let id = added.json["id"] as? String else {
            throw TestFailure("adding \(number) answered \(added.status): \(added.body)")
        }
        return (user, id)
    }

    /// Waits (up to 15 s) until the stored top-up of `key` is no longer pending, without asking the network.
    private func settledByTheNetwork(_ server: TestServer, userID: String, key: String) async throws -> TopUpRecord? {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let stored = try await server.storedTopUp(userID: userID, key: key), stored.status != .pending { return stored }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try await server.storedTopUp(userID: userID, key: key)
    }

    @Test("4242: tokenized at the network, added, charged (201) and credited; the PaymentIntent names the top-up, its customer and card")
    func approves() async throws {
        try await withServer(webhooks: 0) { server, client, stripe in
            let user = try await server.register(client)
            let network = try await client.send(.get, "/v1/card-network", token: user.token)
            #expect(network.json["network"] as? String == "stripe" && network.json["publishableKey"] as? String == stripe.publishableKey)
            #expect(network.json["apiUrl"] as? String == stripe.url)
            let added = try await server.addCard(client, token: user.token, cardToken: try await stripe.token(number: Seeds.visa))
            #expect(added.status == .created)
            #expect(added.json["brand"] as? String == "visa" && added.json["last4"] as? String == "4242")
            #expect(added.json["expiryMonth"] as? Int == 12 && added.json["expiryYear"] as? Int == 2031)
            let cardID = try #require(added.json["id"] as? String)

            let made = try await server.topUp(client, user.token, card: cardID, 5_000, key: "ls-1")
            #expect(made.status == .created && made.json["status"] as? String == "completed", "\(made.body)")
            #expect(try await server.balance(client, user.token) == 105_000)
            let again = try await server.topUp(client, user.token, card: cardID, 5_000, key: "ls-1")
            #expect(again.status == .created && again.body == made.body && again.headers[TestServer.replayed] == "true")
            #expect(try await server.balance(client, user.token) == 105_000)

            let stored = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-1"))
            let paymentID = try #require(stored.paymentID)
            #expect(paymentID.hasPrefix("pi_") && stored.cardFingerprint?.hasPrefix("stripe:") == true)
            let (card, customer) = try await server.withRepositories { repositories in
                (try await repositories.cards.card(id: cardID, userID: user.userID),
                 try await repositories.cards.customer(userID: user.userID, network: "stripe"))
            }
            let intent = try await stripe.paymentIntent(paymentID).json
            #expect(intent["status"] as? String == "succeeded" && intent["amount"] as? Int == 5_000 && intent["currency"] as? String == "usd")
            #expect((intent["metadata"] as? [String: Any])?["skiff_topup"] as? String == stored.id)
            #expect(intent["customer"] as? String == customer && customer?.hasPrefix("cus_") == true)
            #expect(intent["payment_method"] as? String == card?.networkCardID && card?.networkCardID?.hasPrefix("card_") == true)
        }
    }

    @Test("4000000000000002 is declined when attached: 402 card-declined on cardToken, nothing added")
    func declinedAtAttach() async throws {
        try await withServer(webhooks: 0) { server, client, stripe in
            let user = try await server.register(client)
            let refused = try await server.addCard(client, token: user.token, cardToken: try await stripe.token(number: "4000000000000002"))
            #expect(refused.status.code == 402 && refused.problemType == "urn:skiff:problem:card-declined")
            #expect(refused.errorMessages == ["cardToken": CardDeclineReason.generic.message])
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
        }
    }

    @Test("4000000000000341 is declined at the charge: 402, the top-up kept declined, nothing credited")
    func declinedAtCharge() async throws {
        try await withServer(webhooks: 0) { server, client, stripe in
            let (user, card) = try await userWithCard(server, client, stripe, number: "4000000000000341")
            let refused = try await server.topUp(client, user.token, card: card, 5_000, key: "ls-d")
            #expect(refused.status.code == 402 && refused.problemType == "urn:skiff:problem:card-declined")
            #expect(refused.json["detail"] as? String == CardDeclineReason.generic.message)
            let stored = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-d"))
            #expect(stored.status == .declined && stored.declineReason == CardDeclineReason.generic.rawValue)
            let intent = try await stripe.paymentIntent(try #require(stored.paymentID)).json
            #expect(intent["status"] as? String == "requires_payment_method")
            #expect(try await server.balance(client, user.token) == 100_000)
            #expect(try await server.topUp(client, user.token, card: card, 5_000, key: "ls-d").status.code == 402)
        }
    }

    @Test("4000002760003184: 202 pending; confirmed at localstripe, the signed webhook completes it (no read needed); delivered twice and once more by hand, it is credited once")
    func threeDSecureByWebhook() async throws {
        try await withServer(webhooks: 2) { server, client, stripe in
            let (user, card) = try await userWithCard(server, client, stripe, number: "4000002760003184")
            let started = try await server.topUp(client, user.token, card: card, 25_000, key: "ls-3ds")
            #expect(started.status == .accepted && started.json["status"] as? String == "pending", "\(started.body)")
            let id = try #require(started.json["id"] as? String)
            let actionURL = try #require(started.json["actionUrl"] as? String)
            let paymentID = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-3ds")?.paymentID)
            #expect(actionURL == stripe.url + "/v1/payment_intents/\(paymentID)/_authenticate")
            #expect(try await stripe.paymentIntent(paymentID).json["status"] as? String == "requires_action")
            #expect(try await server.balance(client, user.token) == 100_000)

            let confirmed = try await stripe.authenticate(actionURL: actionURL, paymentID: paymentID, success: true)
            #expect(confirmed.status == .ok && confirmed.json["status"] as? String == "succeeded", "\(confirmed.body)")
            // Nothing here asks the network: only the webhook can settle it.
            let settled = try #require(try await settledByTheNetwork(server, userID: user.userID, key: "ls-3ds"))
            #expect(settled.status == .completed && settled.transferID != nil)
            #expect(server.logText.contains("top-up settled by the network's webhook"))
            #expect(server.logLines.withLockedValue { $0 }.contains { $0.contains("settled by the network's webhook") && $0.contains(id) })

            // Both deliveries (two webhooks) arrive; the event is kept once.
            let event = try #require(try await stripe.event(type: "payment_intent.succeeded", paymentID: paymentID))
            let eventID = try #require(event["id"] as? String)
            #expect(try await server.withRepositories { try await $0.topUps.handledEvent(id: eventID) })
            try await Task.sleep(for: .seconds(2))
            // And once more, as Stripe retries one it thinks lost.
            let body = Array(try JSONSerialization.data(withJSONObject: event))
            let resent = try await client.sendWebhook(body, signature: StripeSignature.header(body: body, secret: Self.webhookSecret, at: Date()))
            #expect(resent.status == .ok)

            let read = try await client.send(.get, "/v1/topups/\(id)", token: user.token)
            #expect(read.json["status"] as? String == "completed" && read.json["transferId"] as? String == settled.transferID)
            #expect(try await server.balance(client, user.token) == 125_000)
            #expect(try await server.topUpLines(client, user.token).count == 1)
            let replay = try await server.topUp(client, user.token, card: card, 25_000, key: "ls-3ds")
            #expect(replay.status == .created && replay.json["id"] as? String == id)
        }
    }

    @Test("Without webhooks, a confirmed 3-D Secure payment completes when its top-up is read, once")
    func threeDSecureByRead() async throws {
        try await withServer(webhooks: 0) { server, client, stripe in
            let (user, card) = try await userWithCard(server, client, stripe, number: "4000002760003184")
            let started = try await server.topUp(client, user.token, card: card, 7_500, key: "ls-read")
            #expect(started.status == .accepted)
            let id = try #require(started.json["id"] as? String)
            let actionURL = try #require(started.json["actionUrl"] as? String)
            let paymentID = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-read")?.paymentID)
            let pending = try await client.send(.get, "/v1/topups/\(id)", token: user.token)
            #expect(pending.json["status"] as? String == "pending" && pending.json["actionUrl"] as? String == actionURL)

            #expect(try await stripe.authenticate(actionURL: actionURL, paymentID: paymentID, success: true).status == .ok)
            let done = try await client.send(.get, "/v1/topups/\(id)", token: user.token)
            #expect(done.status == .ok && done.json["status"] as? String == "completed", "\(done.body)")
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: user.token).body == done.body)
            let replay = try await server.topUp(client, user.token, card: card, 7_500, key: "ls-read")
            #expect(replay.status == .created && replay.body == done.body)
            #expect(try await server.balance(client, user.token) == 107_500)
            #expect(try await server.topUpLines(client, user.token).count == 1)
            #expect(!server.logText.contains("settled by the network's webhook"))
        }
    }

    @Test("The top-up read at once after its holder confirmed, then the webhook delivered: completed by the first, credited once")
    func webhookAfterRead() async throws {
        try await withServer(webhooks: 1) { server, client, stripe in
            let (user, card) = try await userWithCard(server, client, stripe, number: "4000002760003184")
            let started = try await server.topUp(client, user.token, card: card, 4_000, key: "ls-both")
            let id = try #require(started.json["id"] as? String)
            let actionURL = try #require(started.json["actionUrl"] as? String)
            let paymentID = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-both")?.paymentID)
            #expect(try await stripe.authenticate(actionURL: actionURL, paymentID: paymentID, success: true).status == .ok)
            // localstripe sends its webhook a second after the event: the read comes first.
            let read = try await client.send(.get, "/v1/topups/\(id)", token: user.token)
            #expect(read.json["status"] as? String == "completed")
            let event = try #require(try await stripe.event(type: "payment_intent.succeeded", paymentID: paymentID))
            let eventID = try #require(event["id"] as? String)
            let deadline = ContinuousClock.now + .seconds(15)
            var handled = false
            while !handled, ContinuousClock.now < deadline {
                handled = try await server.withRepositories { try await $0.topUps.handledEvent(id: eventID) }
                if !handled { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(handled, "the webhook arrived")
            #expect(try await server.balance(client, user.token) == 104_000)
            #expect(try await server.topUpLines(client, user.token).count == 1)
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: user.token).body == read.body)
        }
    }

    @Test("A holder who refuses at their bank: read, the top-up is declined (not-confirmed); its key answers 402; nothing credited")
    func threeDSecureRefused() async throws {
        try await withServer(webhooks: 0) { server, client, stripe in
            let (user, card) = try await userWithCard(server, client, stripe, number: "4000002760003184")
            let started = try await server.topUp(client, user.token, card: card, 3_000, key: "ls-no")
            let id = try #require(started.json["id"] as? String)
            let actionURL = try #require(started.json["actionUrl"] as? String)
            let paymentID = try #require(try await server.storedTopUp(userID: user.userID, key: "ls-no")?.paymentID)
            #expect(try await stripe.authenticate(actionURL: actionURL, paymentID: paymentID, success: false).status == .ok)
            let declined = try await client.send(.get, "/v1/topups/\(id)", token: user.token)
            #expect(declined.json["status"] as? String == "declined" && declined.json["declineReason"] as? String == "not-confirmed")
            let replay = try await server.topUp(client, user.token, card: card, 3_000, key: "ls-no")
            #expect(replay.status.code == 402 && replay.json["detail"] as? String == CardDeclineReason.notConfirmed.message)
            #expect(try await server.balance(client, user.token) == 100_000)
        }
    }

    @Test("A webhook signed with another secret, or too old, is refused (400) by a server on Stripe's network; one without a webhook secret takes none")
    func badWebhooks() async throws {
        try await withServer(webhooks: 0) { _, client, _ in
            let body = StripeEvent.paymentIntent(id: "evt_forged", paymentID: "pi_forged")
            for secret in [Self.webhookSecret, "whsec_other"] {
                let reply = try await client.sendWebhook(body, signature: StripeSignature.header(body: body, secret: secret, at: Date()))
                #expect(reply.status == .badRequest, "\(secret)")
            }
        }
        try await withServer(webhooks: 1) { server, client, _ in
            let body = StripeEvent.paymentIntent(id: "evt_forged", paymentID: "pi_forged")
            let other = try await client.sendWebhook(body, signature: StripeSignature.header(body: body, secret: "whsec_other", at: Date()))
            #expect(other.status == .badRequest)
            let old = try await client.sendWebhook(
                body, signature: StripeSignature.header(body: body, secret: Self.webhookSecret, at: Date().addingTimeInterval(-600))
            )
            #expect(old.status == .badRequest)
            let good = try await client.sendWebhook(body, signature: StripeSignature.header(body: body, secret: Self.webhookSecret, at: Date()))
            #expect(good.status == .ok)
            let handled = try await server.withRepositories { try await $0.topUps.handledEvent(id: "evt_forged") }
            #expect(handled)
        }
    }
}
