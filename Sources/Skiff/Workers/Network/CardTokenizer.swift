import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SkiffAPI
import SkiffCore
import Synchronization

/// Turns a typed card into the card network's token for it, at the network itself: the number and security code go
/// to the network's `POST /v1/tokens` (as Stripe.js sends them, with the publishable key the server names in
/// `GET /v1/card-network`) and never to Skiff's server, which gets the token only. The simulated network lives on
/// Skiff's server (a relative address) and speaks the same protocol.
///
/// A token is good once, so the one made for an Idempotency-Key is kept (in memory) for that key: a retry of the same
/// add sends the same token, and the server answers it as the first time.
final class CardTokenizer: Sendable {
    private let api: APIClient
    private let tokens = Mutex<[String: String]>([:])

    init(api: APIClient) {
        self.api = api
    }

    /// The token for `card`, made once per `idempotencyKey`. A field the network refuses is `.validation` under
    /// `NewCard`'s name for it (`number`, `expiry`, `securityCode`); a decline is `.declined`.
    func token(for card: NewCard, idempotencyKey: String) async throws(NetworkError) -> String {
        if let kept = tokens.withLock({ $0[idempotencyKey] }) { return kept }
        let network = try await api.send { try await $0.getCardNetwork() } success: { try $0.ok.body.json }
        let url = try await api.resolve(network.apiUrl + "/v1/tokens")
        // The simulated network is Skiff's own server, reached as the API is; a real one through the system's trust.
        let isSimulated = network.apiUrl.hasPrefix("/")
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let fields = [
            ("key", network.publishableKey), ("card[number]", card.number.digits),
            ("card[exp_month]", String(card.expiry.month)), ("card[exp_year]", String(card.expiry.year)),
            ("card[cvc]", card.securityCode),
        ]
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(fields)))
        let (status, body) = try await NetworkErrorMapping.call { [api] () async throws -> (Int, ByteBuffer) in
            let client = isSimulated ? try api.httpClient() : HTTPClient.shared
            let response = try await client.execute(request, timeout: .seconds(20))
            return (Int(response.status.code), try await response.body.collect(upTo: 256 * 1024))
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
        if status == 200, let token = json["id"] as? String, token.hasPrefix("tok_") {
            tokens.withLock { $0[idempotencyKey] = token }
            return token
        }
        throw Self.refusal(status: status, error: json["error"] as? [String: Any])
    }

    /// A refusal of the network's, in the terms of the form: Stripe's `param` names the field.
    static func refusal(status: Int, error: [String: Any]?) -> NetworkError {
        let message = error?["message"] as? String ?? "The card network refused the card (HTTP \(status))."
        let field: String? = switch error?["param"] as? String {
        case "number": "number"
        case "exp_month", "exp_year": "expiry"
        case "cvc": "securityCode"
        default: nil
        }
        if let field { return .validation(detail: message, fields: [FieldError(field: field, message: message)]) }
        if status == 402 { return .declined(reason: message) }
        if status == 429 || status >= 500 { return .unavailable(detail: "The card network did not answer. Nothing was added: try again.") }
        return .server(status: status, detail: "The card network refused the wallet: \(message)")
    }
}
