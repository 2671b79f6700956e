import Crypto
import Foundation
import Logging
import Testing
@testable import SkiffCore
@testable import SkiffServer

@Suite("Simulated card network")
struct CardNetworkTests {
    let key = ServerKey(key: SymmetricKey(size: .bits256))
    var network: SimulatedCardNetwork { SimulatedCardNetwork(key: key, latency: .zero) }

    /// The card the network attaches for `number`, or the test fails.
    private func attached(_ network: SimulatedCardNetwork, _ number: String, month: Int = 12, year: Int = 2031) async throws -> NetworkCard {
        let token = try #require(network.token(number: number, expiryMonth: month, expiryYear: year))
        guard case .attached(let card) = try await network.attach(token: token, customerID: "cus_sim_u", idempotencyKey: "k") else {
            throw TestFailure("\(number) was not attached")
        }
        return card
    }

    /// A payment of $50 from `number`'s card, made (not confirmed), with `key`.
    private func payment(_ network: SimulatedCardNetwork, _ number: String, key: String = "pay") async throws -> String {
        let card = try await attached(network, number)
        return try await network.makePayment(CardPaymentRequest(
            customerID: "cus_sim_u", cardID: card.id, amountMinor: 5_000, currency: "USD", topUpID: "t", idempotencyKey: key
        ))
    }

    @Test("A token names the card as the network keeps it: brand, last four, expiry and a fingerprint, never the number")
    func tokenCarriesTheCard() async throws {
        let token = try #require(network.token(number: Seeds.amex, expiryMonth: 4, expiryYear: 2030))
        #expect(token.hasPrefix("tok_sim_"))
        #expect(!token.contains(Seeds.amex) && !token.contains(String(Seeds.amex.prefix(8))))
        let card = try await attached(network, Seeds.amex, month: 4, year: 2030)
        #expect(card.brand == .amex && card.last4 == "0005" && card.expiryMonth == 4 && card.expiryYear == 2030)
        #expect(card.id.hasPrefix("card_sim_") && card.fingerprint == "simulated:" + key.cardFingerprint(Seeds.amex))
        // Decoded, the token holds the fingerprint and the last four, not the number.
        let payload = try #require(token.dropFirst("tok_sim_".count).split(separator: ".").first)
        let text = try #require(Data(base64URLEncoded: String(payload)).flatMap { String(data: $0, encoding: .utf8) })
        #expect(!text.contains(Seeds.amex) && text.contains("0005"))
        #expect(network.token(number: "4242424242424241", expiryMonth: 12, expiryYear: 2031) == nil)
    }

    @Test("The same number has the same fingerprint, whoever tokenizes it and whatever the expiry; another number another")
    func fingerprints() async throws {
        let first = try await attached(network, Seeds.visa)
        let again = try await attached(SimulatedCardNetwork(key: key, latency: .zero), "4242 4242 4242 4242", month: 1, year: 2030)
        let other = try await attached(network, Seeds.mastercard)
        #expect(first.fingerprint == again.fingerprint)
        #expect(first.fingerprint != other.fingerprint)
    }

    @Test("A token signed with another key, altered, or not a token is refused as unknown (400), not attached")
    func foreignTokensRefused() async throws {
        let foreign = try #require(SimulatedCardNetwork(key: ServerKey(key: SymmetricKey(size: .bits256)), latency: .zero)
            .token(number: Seeds.visa, expiryMonth: 12, expiryYear: 2031))
        let own = try #require(network.token(number: Seeds.visa, expiryMonth: 12, expiryYear: 2031))
        let parts = own.split(separator: ".")
        // The payload of a Mastercard with this token's signature.
        let mastercard = try #require(network.token(number: Seeds.mastercard, expiryMonth: 12, expiryYear: 2031))
        let swapped = String(mastercard.split(separator: ".")[0]) + "." + String(parts[1])
        for token in [foreign, swapped, own + "x", "tok_sim_", "tok_4242", own.replacingOccurrences(of: "tok_sim_", with: "card_sim_")] {
            await #expect(throws: CardNetworkError.refused(status: 400, message: "No such token."), "\(token)") {
                _ = try await network.attach(token: token, customerID: "cus_sim_u", idempotencyKey: "k")
            }
        }
    }

    @Test("…0002 is declined when attached; the other test cards attach")
    func declinedAtAttach() async throws {
        let token = try #require(network.token(number: "4000000000000002", expiryMonth: 12, expiryYear: 2031))
        #expect(try await network.attach(token: token, customerID: "c", idempotencyKey: "k") == .declined(.generic))
        for number in ["4000000000000341", "4000000000009995", "4000000000000069", "4000000000000119", "4000002760003184"] {
            #expect(try await attached(network, number).last4 == String(number.suffix(4)))
        }
    }

    @Test("Confirmed, Stripe's test cards answer by their last four digits", arguments: [
        (Seeds.visa, CardPaymentState.succeeded), ("4000000000000341", .declined(.generic)),
        ("4000000000009995", .declined(.insufficientFunds)), ("4000000000000069", .declined(.expiredCard)),
    ])
    func chargeOutcomes(number: String, state: CardPaymentState) async throws {
        let network = network
        let id = try await payment(network, number)
        #expect(id.hasPrefix("pi_sim_") && id.hasSuffix("_" + String(number.suffix(4))))
        #expect(try await network.confirm(paymentID: id, idempotencyKey: "c") == state)
        #expect(try await network.payment(id: id) == state)
    }

    @Test("…0119 never answers: unavailable, at the confirmation and when asked")
    func noAnswer() async throws {
        let network = network
        let id = try await payment(network, "4000000000000119")
        await #expect(throws: CardNetworkError.unavailable) { _ = try await network.confirm(paymentID: id, idempotencyKey: "c") }
        await #expect(throws: CardNetworkError.unavailable) { _ = try await network.payment(id: id) }
    }

    @Test("…3184 waits for its holder at _authenticate: confirmed it succeeds, refused it is declined, once")
    func threeDSecure() async throws {
        let network = network
        let id = try await payment(network, "4000002760003184", key: "a")
        let waiting = CardPaymentState.needsAction(url: "/simulated-card-network/v1/payment_intents/\(id)/_authenticate")
        #expect(try await network.confirm(paymentID: id, idempotencyKey: "c") == waiting)
        #expect(try await network.payment(id: id) == waiting)
        #expect(network.authenticate(paymentID: id, success: true))
        #expect(try await network.payment(id: id) == .succeeded)
        // Decided: asking again changes nothing.
        #expect(!network.authenticate(paymentID: id, success: false))
        #expect(try await network.payment(id: id) == .succeeded)

        let refused = try await payment(network, "4000002760003184", key: "b")
        #expect(network.authenticate(paymentID: refused, success: false))
        #expect(try await network.payment(id: refused) == .declined(.notConfirmed))
        // Only a payment that waits for its holder can be confirmed.
        #expect(!network.authenticate(paymentID: try await payment(network, Seeds.visa), success: true))
        #expect(!network.authenticate(paymentID: "pi_sim_nothing_0000", success: true))
    }

    @Test("The confirmation is kept by the process: another instance on the same key asks the holder again")
    func confirmationInProcess() async throws {
        let first = network
        let id = try await payment(first, "4000002760003184")
        #expect(first.authenticate(paymentID: id, success: true))
        guard case .needsAction = try await network.payment(id: id) else { Issue.record("another instance saw it confirmed"); return }
    }

    @Test("The same idempotency key makes the same payment, on any instance with the key; another key another")
    func paymentIDs() async throws {
        let first = try await payment(network, Seeds.visa, key: "k")
        #expect(try await payment(SimulatedCardNetwork(key: key, latency: .zero), Seeds.visa, key: "k") == first)
        #expect(try await payment(network, Seeds.visa, key: "other") != first)
        await #expect(throws: CardNetworkError.refused(status: 404, message: "No such payment.")) {
            _ = try await network.payment(id: "pi_live_123")
        }
        await #expect(throws: CardNetworkError.refused(status: 404, message: "No such card.")) {
            _ = try await network.makePayment(CardPaymentRequest(
                customerID: "c", cardID: "card_sim_forged.sig", amountMinor: 1, currency: "USD", topUpID: "t", idempotencyKey: "k"
            ))
        }
    }

    @Test("Customers are named after the user; the wallet tokenizes with pk_simulated at /simulated-card-network")
    func customersAndTokenization() async throws {
        #expect(try await network.makeCustomer(userID: "u-1", idempotencyKey: "k") == "cus_sim_u-1")
        #expect(network.tokenization == CardTokenization(network: .simulated, publishableKey: "pk_simulated", apiURL: "/simulated-card-network"))
    }

    @Test("It sends no webhooks: every one is refused")
    func noWebhooks() throws {
        let body = StripeEvent.paymentIntent(id: "evt_1", paymentID: "pi_sim_x_4242")
        #expect(throws: CardNetworkError.badSignature) {
            _ = try network.webhookEvent(body: body, signature: StripeSignature.header(body: body, secret: "s", at: Date()), now: Date())
        }
    }

    @Test("Its latency is spent before it attaches and confirms")
    func latency() async throws {
        let slow = SimulatedCardNetwork(key: key, latency: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        let card = try await attached(slow, Seeds.visa)
        #expect(clock.now - start >= .milliseconds(50))
        let id = try await slow.makePayment(CardPaymentRequest(
            customerID: "c", cardID: card.id, amountMinor: 1, currency: "USD", topUpID: "t", idempotencyKey: "k"
        ))
        let confirming = clock.now
        _ = try await slow.confirm(paymentID: id, idempotencyKey: "c")
        #expect(clock.now - confirming >= .milliseconds(50))
    }
}

@Suite("Stripe's webhook signature and answers")
struct StripeCardNetworkTests {
    let secret = "whsec_test_secret"
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let body = StripeEvent.paymentIntent(id: "evt_1", paymentID: "pi_123")

    private func network(webhookSecret: String?) -> StripeCardNetwork {
        StripeCardNetwork(
            settings: .init(apiURL: "http://127.0.0.1:9", secretKey: "sk_test", publishableKey: "pk_test", webhookSecret: webhookSecret),
            logger: Logger(label: "stripe-tests") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    @Test("A signature made with the secret over t.body, within 300 s either way, is accepted")
    func accepted() {
        for offset in [0.0, -300, 300, -299.5, 120] {
            let header = StripeSignature.header(body: body, secret: secret, at: now.addingTimeInterval(offset))
            #expect(StripeCardNetwork.verify(body: body, signature: header, secret: secret, now: now), "\(offset)")
        }
    }

    @Test("Older or newer than 300 s, another secret, another body, or a malformed header is refused")
    func refused() {
        let good = StripeSignature.header(body: body, secret: secret, at: now)
        #expect(!StripeCardNetwork.verify(body: body, signature: StripeSignature.header(body: body, secret: secret, at: now.addingTimeInterval(-301)), secret: secret, now: now))
        #expect(!StripeCardNetwork.verify(body: body, signature: StripeSignature.header(body: body, secret: secret, at: now.addingTimeInterval(301)), secret: secret, now: now))
        #expect(!StripeCardNetwork.verify(body: body, signature: StripeSignature.header(body: body, secret: "whsec_other", at: now), secret: secret, now: now))
        #expect(!StripeCardNetwork.verify(body: body + [0x20], signature: good, secret: secret, now: now))
        let seconds = Int(now.timeIntervalSince1970)
        let v1 = StripeSignature.v1(body: body, secret: secret, time: seconds)
        for header in [
            "", "v1=\(v1)", "t=\(seconds)", "t=\(seconds),v0=\(v1)", "t=soon,v1=\(v1)", "t=\(seconds + 1),v1=\(v1)",
            "t=\(seconds),v1=\(v1.uppercased())", "t=\(seconds),v1=\(v1.dropLast())", "t=\(seconds);v1=\(v1)",
        ] {
            #expect(!StripeCardNetwork.verify(body: body, signature: header, secret: secret, now: now), "\(header)")
        }
    }

    @Test("Of several v1 signatures (a secret being rolled), one that matches is enough; the order and other fields do not matter")
    func severalSignatures() {
        let both = StripeSignature.header(body: body, secrets: ["whsec_old", secret], at: now)
        #expect(both.components(separatedBy: "v1=").count == 3)
        #expect(StripeCardNetwork.verify(body: body, signature: both, secret: secret, now: now))
        #expect(StripeCardNetwork.verify(body: body, signature: both, secret: "whsec_old", now: now))
        #expect(!StripeCardNetwork.verify(body: body, signature: both, secret: "whsec_third", now: now))
        let seconds = Int(now.timeIntervalSince1970)
        let v1 = StripeSignature.v1(body: body, secret: secret, time: seconds)
        #expect(StripeCardNetwork.verify(body: body, signature: "v1=deadbeef,v0=abc,v1=\(v1),t=\(seconds)", secret: secret, now: now))
    }

    @Test("A checked event names its payment: a PaymentIntent's id, a charge's payment_intent, or none")
    func events() throws {
        let network = network(webhookSecret: secret)
        func event(_ object: [String: Any], id: String = "evt_x") throws -> CardNetworkEvent {
            let body = Array(try JSONSerialization.data(withJSONObject: ["id": id, "type": "x", "data": ["object": object]]))
            return try network.webhookEvent(body: body, signature: StripeSignature.header(body: body, secret: secret, at: now), now: now)
        }
        #expect(try network.webhookEvent(body: body, signature: StripeSignature.header(body: body, secret: secret, at: now), now: now)
            == CardNetworkEvent(id: "evt_1", paymentID: "pi_123"))
        #expect(try event(["object": "charge", "id": "ch_1", "payment_intent": "pi_9"]) == CardNetworkEvent(id: "evt_x", paymentID: "pi_9"))
        #expect(try event(["object": "customer", "id": "cus_1"]) == CardNetworkEvent(id: "evt_x", paymentID: nil))
        #expect(throws: CardNetworkError.badSignature) {
            _ = try network.webhookEvent(body: body, signature: nil, now: now)
        }
        #expect(throws: CardNetworkError.badSignature) {
            _ = try network.webhookEvent(
                body: body, signature: StripeSignature.header(body: body, secret: secret, at: now.addingTimeInterval(-400)), now: now
            )
        }
        // Without a webhook secret, no webhook is taken, however it is signed.
        #expect(throws: CardNetworkError.badSignature) {
            _ = try self.network(webhookSecret: nil).webhookEvent(
                body: body, signature: StripeSignature.header(body: body, secret: secret, at: now), now: now
            )
        }
    }

    @Test("Stripe's decline codes become the reasons a person is told")
    func declineCodes() {
        #expect(CardDeclineReason(stripeCode: "insufficient_funds") == .insufficientFunds)
        #expect(CardDeclineReason(stripeCode: "expired_card") == .expiredCard)
        #expect(CardDeclineReason(stripeCode: "incorrect_cvc") == .incorrectSecurityCode)
        #expect(CardDeclineReason(stripeCode: "invalid_cvc") == .incorrectSecurityCode)
        #expect(CardDeclineReason(stripeCode: "payment_intent_authentication_failure") == .notConfirmed)
        #expect(CardDeclineReason(stripeCode: "card_declined") == .generic)
        #expect(CardDeclineReason(stripeCode: "do_not_honor") == .generic)
        #expect(CardDeclineReason(stripeCode: nil) == .generic)
        #expect(Set(CardDeclineReason.allCases.map(\.message)).count == CardDeclineReason.allCases.count)
    }

    @Test("Stripe's brand names are Skiff's brands; form fields are percent-encoded as Stripe reads them")
    func brandsAndForms() {
        #expect(StripeCardNetwork.brand("Visa") == .visa)
        #expect(StripeCardNetwork.brand("MasterCard") == .mastercard)
        #expect(StripeCardNetwork.brand("American Express") == .amex)
        #expect(StripeCardNetwork.brand("amex") == .amex)
        #expect(StripeCardNetwork.brand("Discover") == .discover)
        #expect(StripeCardNetwork.brand("Unknown") == nil)
        #expect(StripeCardNetwork.brand(nil) == nil)
        #expect(FormEncoding.escaped("card[number]") == "card%5Bnumber%5D")
        #expect(FormEncoding.escaped("a b&c=d+é") == "a%20b%26c%3Dd%2B%C3%A9")
        #expect(FormEncoding.escaped("tok_abc-1.2~") == "tok_abc-1.2~")
    }
}
