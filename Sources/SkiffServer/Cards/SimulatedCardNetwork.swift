import Foundation
import Synchronization
import SkiffCore

/// A card network that answers like Stripe's test mode, for development on loopback (refused elsewhere, see
/// `checkExposure`). It serves the tokenization protocol the wallet speaks to Stripe (`SimulatedCardNetworkRoutes`),
/// so the wallet has one path.
///
/// Tokens and card ids carry what the network would keep (brand, last four, expiry and a keyed fingerprint of the
/// number, never the number), signed with the server key, so every instance on one database reads them alike. Test
/// cards by their last four digits, as Stripe's: `0002` is declined when attached; at a charge `0341` is declined,
/// `9995` has insufficient funds, `0069` has expired, `0119` does not answer, and `3184` asks its holder to confirm
/// (3-D Secure) until `POST …/payment_intents/{id}/_authenticate`. That confirmation is kept in this process only: a
/// restarted server, or another instance, asks for it again.
final class SimulatedCardNetwork: CardNetwork {
    /// What the simulated issuer does with a card, by its last four digits.
    enum TestCard: String, CaseIterable, Sendable {
        case declinedAtAttach = "0002"
        case declinedAtCharge = "0341"
        case insufficientFunds = "9995"
        case expiredCard = "0069"
        case timeout = "0119"
        case asksToConfirm = "3184"
    }

    /// The publishable key the wallet sends with a card to tokenize (nothing to keep secret here).
    static let publishableKey = "pk_simulated"
    /// Where the routes are, on Skiff's own server.
    static let apiPath = "/simulated-card-network"

    private let key: ServerKey
    private let latency: Duration
    /// Payments their holder confirmed (true) or refused (false) at `_authenticate`, by id.
    private let confirmations = Mutex<[String: Bool]>([:])

    init(key: ServerKey, latency: Duration = .milliseconds(150)) {
        self.key = key
        self.latency = latency
    }

    var tokenization: CardTokenization {
        CardTokenization(network: .simulated, publishableKey: Self.publishableKey, apiURL: Self.apiPath)
    }

    // MARK: Tokens

    /// A token for the card `number` (already checked), or nil for a number that is not one.
    func token(number: String, expiryMonth: Int, expiryYear: Int) -> String? {
        guard let card = try? CardNumber(number) else { return nil }
        let fields = [card.brand.rawValue, card.last4, String(expiryMonth), String(expiryYear), key.cardFingerprint(card.digits)]
        let payload = Data(fields.joined(separator: ":").utf8).base64URLEncodedString()
        return "tok_sim_" + payload + "." + key.mac("simulated-card-token", payload)
    }

    /// The card a token (or a card id, which carries the same) names, when its signature is this server key's.
    private func card(named token: String, prefix: String) -> NetworkCard? {
        guard token.hasPrefix(prefix) else { return nil }
        let parts = token.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, constantTimeEquals(key.mac("simulated-card-token", String(parts[0])), String(parts[1])),
              let data = Data(base64URLEncoded: String(parts[0])), let text = String(data: data, encoding: .utf8)
        else { return nil }
        let fields = text.split(separator: ":").map(String.init)
        guard fields.count == 5, let month = Int(fields[2]), let year = Int(fields[3]) else { return nil }
        return NetworkCard(
            id: "card_sim_" + token.dropFirst(prefix.count), brand: CardBrand(rawValue: fields[0]), last4: fields[1],
            expiryMonth: month, expiryYear: year, fingerprint: "simulated:" + fields[4]
        )
    }

    // MARK: CardNetwork

    func makeCustomer(userID: String, idempotencyKey: String) async throws(CardNetworkError) -> String {
        "cus_sim_" + userID
    }

    func attach(token: String, customerID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardAttachment {
        await wait()
        guard let card = card(named: token, prefix: "tok_sim_") else {
            throw .refused(status: 400, message: "No such token.")
        }
        if card.last4 == TestCard.declinedAtAttach.rawValue { return .declined(.generic) }
        return .attached(card)
    }

    func makePayment(_ request: CardPaymentRequest) async throws(CardNetworkError) -> String {
        guard let card = card(named: request.cardID, prefix: "card_sim_") else {
            throw .refused(status: 404, message: "No such card.")
        }
        // The payment's id names its card, so that any instance, or this one restarted, can say how it went.
        return "pi_sim_" + key.mac("simulated-payment", request.idempotencyKey).prefix(24) + "_" + card.last4
    }

    func confirm(paymentID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardPaymentState {
        await wait()
        return try payment(paymentID)
    }

    func payment(id: String) async throws(CardNetworkError) -> CardPaymentState {
        try payment(id)
    }

    private func payment(_ id: String) throws(CardNetworkError) -> CardPaymentState {
        guard id.hasPrefix("pi_sim_"), let last4 = id.split(separator: "_").last.map(String.init) else {
            throw .refused(status: 404, message: "No such payment.")
        }
        switch TestCard(rawValue: last4) {
        case .declinedAtAttach, .declinedAtCharge: return .declined(.generic)
        case .insufficientFunds: return .declined(.insufficientFunds)
        case .expiredCard: return .declined(.expiredCard)
        case .timeout: throw .unavailable
        case .asksToConfirm:
            switch confirmations.withLock({ $0[id] }) {
            case true?: return .succeeded
            case false?: return .declined(.notConfirmed)
            case nil: return .needsAction(url: Self.apiPath + "/v1/payment_intents/\(id)/_authenticate")
            }
        case nil: return .succeeded
        }
    }

    /// The last four digits of the card whose payment waits for its holder to confirm it; nil when none waits.
    func waitingForHolder(paymentID: String) -> String? {
        guard case .needsAction? = try? payment(paymentID) else { return nil }
        return paymentID.split(separator: "_").last.map(String.init)
    }

    /// The card's holder confirmed (or refused) the payment at their bank; false when no such payment waits.
    func authenticate(paymentID: String, success: Bool) -> Bool {
        guard waitingForHolder(paymentID: paymentID) != nil else { return false }
        confirmations.withLock { $0[paymentID] = success }
        return true
    }

    func webhookEvent(body: [UInt8], signature: String?, now: Date) throws(CardNetworkError) -> CardNetworkEvent {
        throw .badSignature
    }

    private func wait() async {
        if latency > .zero { try? await Task.sleep(for: latency) }
    }
}
