import Foundation
import SkiffCore

/// The card network money comes in through: a processor that keeps card numbers in its own vault (Skiff's server never
/// sees one) and charges them. `StripeCardNetwork` talks Stripe's API; `SimulatedCardNetwork` answers like Stripe's
/// test mode, for development on loopback only. Nothing else in the server knows which one it talks to.
///
/// Every call that changes something at the network carries an idempotency key derived from Skiff's own operation
/// (a user, a top-up), so a call repeated after a lost answer or a killed server does the thing once.
protocol CardNetwork: Sendable {
    /// What the wallet is told (`GET /v1/card-network`) to tokenize a card at the network itself.
    var tokenization: CardTokenization { get }
    /// The network's customer for `userID`, made on first use (the same key makes the same customer).
    func makeCustomer(userID: String, idempotencyKey: String) async throws(CardNetworkError) -> String
    /// Attaches the card the wallet tokenized to the customer: the card as the network knows it, or its decline.
    func attach(token: String, customerID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardAttachment
    /// Makes a payment for `request`, not yet confirmed: nothing is charged until `confirm`. A payment made twice
    /// (an answer lost before its id was kept) leaves one unconfirmed, which charges nothing.
    func makePayment(_ request: CardPaymentRequest) async throws(CardNetworkError) -> String
    /// Confirms the payment: the charge is tried, or the card asks its holder to confirm first (3-D Secure).
    func confirm(paymentID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardPaymentState
    /// Where the payment stands at the network now.
    func payment(id: String) async throws(CardNetworkError) -> CardPaymentState
    /// Checks a webhook's signature (`Stripe-Signature`) against its body at `now`: the payment it is about, or
    /// `CardNetworkError.badSignature`. A network that sends no webhooks refuses every one.
    func webhookEvent(body: [UInt8], signature: String?, now: Date) throws(CardNetworkError) -> CardNetworkEvent
}

/// Which card network a server uses (`--card-network`).
public enum CardNetworkKind: String, Sendable, CaseIterable {
    /// Stripe's test mode imitated in the server, for development: refused off loopback.
    case simulated
    /// Stripe's API (or a fake of it, such as localstripe) with the operator's keys.
    case stripe
}

/// What a wallet needs to tokenize a card at the network: the network, its publishable key and where its API is
/// (relative to Skiff's server for the simulated network, which serves the protocol itself).
struct CardTokenization: Sendable, Equatable {
    var network: CardNetworkKind
    var publishableKey: String
    var apiURL: String
}

/// A card as the network keeps it: what Skiff may keep of it too.
struct NetworkCard: Sendable, Equatable {
    /// The network's id of the card (Stripe's `card_…`), charged by id.
    var id: String
    var brand: CardBrand?
    var last4: String
    var expiryMonth: Int
    var expiryYear: Int
    /// The same for the same number at this network, whoever added it: a card sits on at most one account.
    var fingerprint: String
}

enum CardAttachment: Sendable, Equatable {
    case attached(NetworkCard)
    case declined(CardDeclineReason)
}

/// One payment asked of the network.
struct CardPaymentRequest: Sendable, Equatable {
    var customerID: String
    var cardID: String
    var amountMinor: Int64
    var currency: String
    /// Skiff's top-up, kept with the payment at the network.
    var topUpID: String
    var idempotencyKey: String
}

/// Where a payment stands at the network.
enum CardPaymentState: Sendable, Equatable {
    /// Made and not confirmed yet.
    case unconfirmed
    /// The card's holder must confirm it at `url` (3-D Secure); the network says when they did.
    case needsAction(url: String)
    /// The network is still working on it.
    case processing
    /// Charged: the money will come.
    case succeeded
    /// Refused, and why.
    case declined(CardDeclineReason)
}

/// A webhook's news: something happened to a payment. Its id makes a repeated delivery harmless.
struct CardNetworkEvent: Sendable, Equatable {
    var id: String
    var paymentID: String?
}

extension CardDeclineReason {
    /// The reason for one of Stripe's error or decline codes (`card_declined`, `insufficient_funds`, …).
    init(stripeCode code: String?) {
        switch code {
        case "insufficient_funds": self = .insufficientFunds
        case "expired_card": self = .expiredCard
        case "incorrect_cvc", "invalid_cvc": self = .incorrectSecurityCode
        case "payment_intent_authentication_failure", "authentication_required": self = .notConfirmed
        default: self = .generic
        }
    }
}

enum CardNetworkError: Error, Equatable {
    /// No answer in time, or an answer that says nothing (a 5xx): whether it acted is unknown, and the same call
    /// with the same idempotency key may be made again.
    case unavailable
    /// The network refused the call itself (a bad key, an unknown id): the operator's or Skiff's mistake.
    case refused(status: Int, message: String)
    /// A webhook whose signature does not match (or is too old, or missing).
    case badSignature
}
