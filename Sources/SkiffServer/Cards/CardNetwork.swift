import Foundation
import SkiffCore

/// The card network a top-up takes money through: the one place a real processor plugs in. Skiff runs on
/// `SimulatedCardNetwork`; nothing else in the server knows which network it talks to.
protocol CardNetwork: Sendable {
    /// Asks the card's issuer to authorize `request`. Throws `CardNetworkError.timedOut` when the network has not
    /// answered in time: the caller cannot tell whether the issuer authorized, so it writes nothing and the client
    /// retries with the same key, which reaches the network with the same `idempotencyKey`.
    func authorize(_ request: CardAuthorizationRequest) async throws -> CardAuthorization
}

/// One authorization asked of the card network. Never the card's number: Skiff does not keep it; a real processor
/// would hold it in its own vault, named by the card's id.
struct CardAuthorizationRequest: Sendable, Equatable {
    var cardID: String
    var brand: String
    var last4: String
    var amountMinor: Int64
    var currency: String
    /// True once the cardholder passed the issuer's challenge (the code), for the same top-up.
    var cardholderVerified: Bool
    /// The same for every try at one intended charge: a processor that honours it authorizes once however often
    /// it is asked (a retry after a lost answer or a killed server gets the first authorization back).
    var idempotencyKey: String
}

/// The issuer's answer.
enum CardAuthorization: Sendable, Equatable {
    /// Authorized: the money will come.
    case approved(authorizationID: String)
    /// The issuer asks the cardholder for a code first (like 3-D Secure); ask again with `cardholderVerified`.
    case challenge
    /// Refused, and why.
    case declined(CardDeclineReason)
}

/// Why an issuer declined, as stored with a declined top-up.
enum CardDeclineReason: String, Sendable, CaseIterable {
    case generic = "card-declined"
    case insufficientFunds = "insufficient-funds"
    case expiredCard = "expired-card"

    /// What the person is told.
    var message: String {
        switch self {
        case .generic: "The card's issuer declined the payment. Use another card, or ask the issuer why."
        case .insufficientFunds: "The card's issuer declined the payment: the card has insufficient funds."
        case .expiredCard: "The card's issuer declined the payment: the card has expired."
        }
    }
}

enum CardNetworkError: Error, Equatable {
    /// No answer in time; whether the issuer authorized is unknown.
    case timedOut
}

/// A card network that answers like a processor's test mode, after `latency`: it declines Stripe's test cards by
/// their last four digits (…0002 generic, …9995 insufficient funds, …0069 expired), times out for …0119, asks for
/// the cardholder's code above `TransferRules.topUpChallengeAboveMinor` until they gave it, and approves the rest.
/// The same idempotency key gets the same authorization id, as a processor answers a retry.
struct SimulatedCardNetwork: CardNetwork {
    /// What the simulated issuer does with a card, by its last four digits.
    enum TestCard: String, CaseIterable, Sendable {
        case genericDecline = "0002"
        case insufficientFunds = "9995"
        case expiredCard = "0069"
        case timeout = "0119"
    }

    var latency: Duration

    init(latency: Duration = .milliseconds(150)) {
        self.latency = latency
    }

    func authorize(_ request: CardAuthorizationRequest) async throws -> CardAuthorization {
        if latency > .zero { try await Task.sleep(for: latency) }
        switch TestCard(rawValue: request.last4) {
        case .genericDecline: return .declined(.generic)
        case .insufficientFunds: return .declined(.insufficientFunds)
        case .expiredCard: return .declined(.expiredCard)
        case .timeout: throw CardNetworkError.timedOut
        case nil: break
        }
        if TransferRules.topUpNeedsCode(amountMinor: request.amountMinor), !request.cardholderVerified {
            return .challenge
        }
        return .approved(authorizationID: Self.authorizationID(for: request.idempotencyKey))
    }

    /// The same id for the same idempotency key, as a processor answers a retried authorization: FNV-1a of the key.
    static func authorizationID(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "auth_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
