import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
@testable import SkiffServer

/// A card network that answers as the simulated one (Stripe's test cards, under a key of its own) and counts every
/// call asked of it, so a test can say how many payments were made and confirmed. It can be told to leave calls
/// unanswered (`CardNetworkError.unavailable`): before the network acted (nothing done there), or after (done there,
/// the answer lost). With a webhook secret it checks webhooks as Stripe's adapter does (`StripeCardNetwork`).
final class SpyCardNetwork: CardNetwork {
    enum Call: String, Sendable, CaseIterable {
        case makeCustomer, attach, makePayment, confirm, payment
    }

    /// Where an unanswered call is lost.
    enum Loss: Sendable {
        /// Before it reached the network: nothing was done.
        case before
        /// After the network did it: only its answer is lost.
        case after
    }

    private struct State {
        var counts: [Call: Int] = [:]
        var losses: [Call: [Loss]] = [:]
        /// Every payment id `makePayment` answered, in order (repeats included).
        var payments: [String] = []
        /// Every idempotency key `makePayment` and `confirm` were sent.
        var paymentKeys: [String] = []
        var confirmKeys: [String] = []
        /// Payments a confirmation reached, and how many confirmations reached the network.
        var confirmed: Set<String> = []
        var confirmedAtNetwork = 0
    }

    let simulated: SimulatedCardNetwork
    private let webhooks: StripeCardNetwork?
    private let state = NIOLockedValueBox(State())

    init(webhookSecret: String? = nil) {
        simulated = SimulatedCardNetwork(key: ServerKey(key: SymmetricKey(size: .bits256)), latency: .zero)
        webhooks = webhookSecret.map { secret in
            StripeCardNetwork(
                settings: .init(apiURL: "http://127.0.0.1:9", secretKey: "sk_test_spy", publishableKey: "pk_test_spy", webhookSecret: secret),
                logger: Logger(label: "spy-card-network") { _ in SwiftLogNoOpLogHandler() }
            )
        }
    }

    // MARK: What the test sees and sets

    func count(_ call: Call) -> Int { state.withLockedValue { $0.counts[call] ?? 0 } }
    var payments: [String] { state.withLockedValue { $0.payments } }
    var paymentKeys: [String] { state.withLockedValue { $0.paymentKeys } }
    var confirmKeys: [String] { state.withLockedValue { $0.confirmKeys } }
    /// How many confirmations reached the network (not those lost before it): how often a charge was tried.
    var confirmedAtNetwork: Int { state.withLockedValue { $0.confirmedAtNetwork } }

    /// The next calls of `call` go unanswered, one per loss given, in order.
    func leaveUnanswered(_ call: Call, _ losses: Loss...) {
        state.withLockedValue { $0.losses[call, default: []] += losses }
    }

    /// The token the wallet would get for the card at this network.
    func token(number: String, expiryMonth: Int = 12, expiryYear: Int = 2031) -> String? {
        simulated.token(number: number, expiryMonth: expiryMonth, expiryYear: expiryYear)
    }

    /// The card's holder confirms (or refuses) a payment that waits for them (`…3184`).
    @discardableResult
    func authenticate(paymentID: String, success: Bool) -> Bool {
        simulated.authenticate(paymentID: paymentID, success: success)
    }

    // MARK: CardNetwork

    var tokenization: CardTokenization { simulated.tokenization }

    func makeCustomer(userID: String, idempotencyKey: String) async throws(CardNetworkError) -> String {
        try await intercept(.makeCustomer) { () async throws(CardNetworkError) in
            try await simulated.makeCustomer(userID: userID, idempotencyKey: idempotencyKey)
        }
    }

    func attach(token: String, customerID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardAttachment {
        try await intercept(.attach) { () async throws(CardNetworkError) in
            try await simulated.attach(token: token, customerID: customerID, idempotencyKey: idempotencyKey)
        }
    }

    func makePayment(_ request: CardPaymentRequest) async throws(CardNetworkError) -> String {
        try await intercept(.makePayment) { () async throws(CardNetworkError) in
            let id = try await simulated.makePayment(request)
            state.withLockedValue {
                $0.payments.append(id)
                $0.paymentKeys.append(request.idempotencyKey)
            }
            return id
        }
    }

    func confirm(paymentID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardPaymentState {
        try await intercept(.confirm) { () async throws(CardNetworkError) in
            state.withLockedValue {
                $0.confirmKeys.append(idempotencyKey)
                $0.confirmedAtNetwork += 1
                $0.confirmed.insert(paymentID)
            }
            return try await simulated.confirm(paymentID: paymentID, idempotencyKey: idempotencyKey)
        }
    }

    /// As Stripe answers: a payment no confirmation reached is unconfirmed (the simulated network, stateless, cannot
    /// tell); else as the simulated network says.
    func payment(id: String) async throws(CardNetworkError) -> CardPaymentState {
        try await intercept(.payment) { () async throws(CardNetworkError) in
            guard state.withLockedValue({ $0.confirmed.contains(id) }) else { return .unconfirmed }
            return try await simulated.payment(id: id)
        }
    }

    func webhookEvent(body: [UInt8], signature: String?, now: Date) throws(CardNetworkError) -> CardNetworkEvent {
        guard let webhooks else { throw .badSignature }
        return try webhooks.webhookEvent(body: body, signature: signature, now: now)
    }

    /// Counts the call, then runs it unless it is to go unanswered before the network; throws after it when the
    /// answer is to be lost.
    private func intercept<Value>(
        _ call: Call, _ body: () async throws(CardNetworkError) -> Value
    ) async throws(CardNetworkError) -> Value {
        let loss = state.withLockedValue { state -> Loss? in
            state.counts[call, default: 0] += 1
            guard var losses = state.losses[call], !losses.isEmpty else { return nil }
            let loss = losses.removeFirst()
            state.losses[call] = losses
            return loss
        }
        if loss == .before { throw .unavailable }
        let value = try await body()
        if loss == .after { throw .unavailable }
        return value
    }
}

/// Stripe's webhook signature, made as Stripe makes it: `t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">`.
enum StripeSignature {
    static func v1(body: [UInt8], secret: String, time: Int) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        mac.update(data: Data("\(time).".utf8))
        mac.update(data: body)
        return mac.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The header for `body` signed at `time` with each of `secrets` (Stripe signs with both while a secret is rolled).
    static func header(body: [UInt8], secrets: [String], at time: Date) -> String {
        let seconds = Int(time.timeIntervalSince1970)
        return (["t=\(seconds)"] + secrets.map { "v1=" + v1(body: body, secret: $0, time: seconds) }).joined(separator: ",")
    }

    static func header(body: [UInt8], secret: String, at time: Date) -> String {
        header(body: body, secrets: [secret], at: time)
    }
}

/// A webhook event as Stripe sends it about a PaymentIntent.
enum StripeEvent {
    static func paymentIntent(id eventID: String, type: String = "payment_intent.succeeded", paymentID: String) -> [UInt8] {
        let object: [String: Any] = ["id": paymentID, "object": "payment_intent", "status": "succeeded"]
        let event: [String: Any] = [
            "id": eventID, "object": "event", "type": type, "api_version": StripeCardNetwork.apiVersion,
            "data": ["object": object],
        ]
        return Array((try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])) ?? Data())
    }
}
