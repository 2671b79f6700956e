import Foundation
import Logging

/// Each user's customer at the card network: made at the network on first use (the same idempotency key for the same
/// user, so two first uses at once make one there) and kept, the first kept winning.
struct NetworkCustomers: Sendable {
    let cards: any CardRepository
    let network: any CardNetwork

    func id(userID: String) async throws -> String {
        let kind = network.tokenization.network.rawValue
        if let kept = try await cards.customer(userID: userID, network: kind) { return kept }
        do {
            let made = try await network.makeCustomer(userID: userID, idempotencyKey: "skiff-customer-\(userID)")
            return try await cards.keepCustomer(made, userID: userID, network: kind)
        } catch let error as CardNetworkError {
            throw Problem(networkError: error, field: nil, logger: nil)
        }
    }
}

extension Problem {
    /// The answer for a card network's failure: 503 when it did not answer (the same request may be sent again), 422
    /// on `field` when it did not know what was sent (a token used or unknown), 500 for the rest (logged: a key or
    /// setting of the operator's is wrong).
    init(networkError error: CardNetworkError, field: String?, logger: Logger?) {
        switch error {
        case .unavailable:
            self = .cardNetworkUnavailable
        case .refused(let status, let message) where field != nil && (400..<500).contains(status) && status != 401 && status != 403:
            logger?.info("card network refused", metadata: ["status": "\(status)", "message": "\(message)"])
            self = .unprocessable([.init(field: field ?? "", message: "The card network does not know this card: type it again.")])
        case .refused(let status, let message):
            logger?.error("card network refused a call", metadata: ["status": "\(status)", "message": "\(message)"])
            self = .internalError
        case .badSignature:
            self = .badRequest("The signature does not match.")
        }
    }
}
