import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SkiffCore

/// Stripe's API (`--card-network stripe`): customers, cards attached from the wallet's tokens, PaymentIntents made
/// unconfirmed and then confirmed with the secret key, and signed webhooks. Works as well against localstripe, a fake
/// of the API that tests run on loopback.
///
/// Every POST carries an `Idempotency-Key` derived from Skiff's operation, and is retried (twice, after 0.5 s and
/// 1 s) only when no answer came or the answer was a 5xx or 429: Stripe answers a repeated key with the first
/// answer, so a retry never charges twice. A payment is made unconfirmed and its id kept before it is confirmed, so
/// even a network that ignored the key would be left with an unconfirmed payment, which charges nothing.
struct StripeCardNetwork: CardNetwork {
    struct Settings: Sendable {
        /// `https://api.stripe.com`, or a fake's (no trailing slash).
        var apiURL: String
        /// The secret key (`sk_…`): read from an owner-only file, never logged.
        var secretKey: String
        /// The publishable key (`pk_…`) the wallet tokenizes with.
        var publishableKey: String
        /// The webhook endpoint's signing secret (`whsec_…`), when webhooks are set up.
        var webhookSecret: String?
        /// Each call's deadline; a call not answered by then counts as no answer.
        var timeout: Duration = .seconds(20)
    }

    let settings: Settings
    let logger: Logger
    /// Stripe's API version this adapter is written for.
    static let apiVersion = "2024-06-20"
    /// How old a webhook's signed time may be, in seconds (Stripe's libraries use 300).
    static let webhookTolerance: TimeInterval = 300

    var tokenization: CardTokenization {
        CardTokenization(network: .stripe, publishableKey: settings.publishableKey, apiURL: settings.apiURL)
    }

    func makeCustomer(userID: String, idempotencyKey: String) async throws(CardNetworkError) -> String {
        let answer = try await post("/v1/customers", ["metadata[skiff_user]": userID], key: idempotencyKey)
        guard let id = answer.json["id"] as? String else { throw Self.malformed(answer) }
        return id
    }

    func attach(token: String, customerID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardAttachment {
        let answer = try await post(
            "/v1/customers/\(Self.pathComponent(customerID))/sources", ["source": token], key: idempotencyKey,
            declines: true
        )
        if let decline = answer.decline { return .declined(decline) }
        let card = answer.json
        guard let id = card["id"] as? String, let last4 = card["last4"] as? String,
              let month = card["exp_month"] as? Int, let year = card["exp_year"] as? Int,
              let fingerprint = card["fingerprint"] as? String
        else { throw Self.malformed(answer) }
        return .attached(NetworkCard(
            id: id, brand: Self.brand(card["brand"] as? String), last4: last4, expiryMonth: month, expiryYear: year,
            fingerprint: "stripe:" + fingerprint
        ))
    }

    func makePayment(_ request: CardPaymentRequest) async throws(CardNetworkError) -> String {
        let answer = try await post("/v1/payment_intents", [
            "amount": String(request.amountMinor), "currency": request.currency.lowercased(),
            "customer": request.customerID, "payment_method": request.cardID, "payment_method_types[]": "card",
            "metadata[skiff_topup]": request.topUpID,
        ], key: request.idempotencyKey)
        guard let id = answer.json["id"] as? String else { throw Self.malformed(answer) }
        return id
    }

    func confirm(paymentID: String, idempotencyKey: String) async throws(CardNetworkError) -> CardPaymentState {
        let answer = try await post(
            "/v1/payment_intents/\(Self.pathComponent(paymentID))/confirm", [:], key: idempotencyKey, declines: true
        )
        if let decline = answer.decline { return .declined(decline) }
        return try state(of: answer)
    }

    func payment(id: String) async throws(CardNetworkError) -> CardPaymentState {
        try state(of: try await call(.GET, "/v1/payment_intents/\(Self.pathComponent(id))", body: nil, key: nil))
    }

    /// A PaymentIntent's status as a `CardPaymentState`.
    private func state(of answer: Answer) throws(CardNetworkError) -> CardPaymentState {
        let intent = answer.json
        guard let id = intent["id"] as? String, let status = intent["status"] as? String else { throw Self.malformed(answer) }
        switch status {
        case "requires_confirmation": return .unconfirmed
        case "requires_action":
            let next = intent["next_action"] as? [String: Any]
            let redirect = (next?["redirect_to_url"] as? [String: Any])?["url"] as? String
            // Without a page to send the holder to (no return URL), the place to confirm is the API's own: a fake's
            // `_authenticate`, where a test confirms as the holder would.
            return .needsAction(url: redirect ?? settings.apiURL + "/v1/payment_intents/\(id)/_authenticate")
        case "processing": return .processing
        case "succeeded", "requires_capture": return .succeeded
        case "canceled": return .declined(.notConfirmed)
        default:
            let error = intent["last_payment_error"] as? [String: Any]
            return .declined(CardDeclineReason(stripeCode: (error?["decline_code"] ?? error?["code"]) as? String))
        }
    }

    func webhookEvent(body: [UInt8], signature: String?, now: Date) throws(CardNetworkError) -> CardNetworkEvent {
        guard let secret = settings.webhookSecret, let signature,
              Self.verify(body: body, signature: signature, secret: secret, now: now)
        else { throw .badSignature }
        guard let event = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let id = event["id"] as? String
        else { throw .refused(status: 400, message: "The event is not JSON.") }
        let object = (event["data"] as? [String: Any])?["object"] as? [String: Any]
        let paymentID: String? = switch object?["object"] as? String {
        case "payment_intent": object?["id"] as? String
        case "charge": object?["payment_intent"] as? String
        default: nil
        }
        return CardNetworkEvent(id: id, paymentID: paymentID)
    }

    /// Stripe's scheme: `t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">` (several `v1` while a secret is rolled),
    /// the time within `webhookTolerance` of now.
    static func verify(body: [UInt8], signature: String, secret: String, now: Date) -> Bool {
        var time: String?
        var signatures: [String] = []
        for part in signature.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { time = pair[1] } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let time, let seconds = TimeInterval(time), abs(now.timeIntervalSince1970 - seconds) <= webhookTolerance
        else { return false }
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        mac.update(data: Data((time + ".").utf8))
        mac.update(data: body)
        let expected = mac.finalize().hexString
        return signatures.contains { constantTimeEquals($0, expected) }
    }

    // MARK: HTTP

    private struct Answer {
        var status: Int
        var json: [String: Any]
        /// A card's decline (a 402 with a card error), when the call said `declines`.
        var decline: CardDeclineReason?
    }

    private func post(
        _ path: String, _ form: [String: String], key: String, declines: Bool = false
    ) async throws(CardNetworkError) -> Answer {
        let body = FormEncoding.encode(form.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        var answer = try await call(.POST, path, body: body, key: key)
        if declines, answer.status == 402 {
            let error = answer.json["error"] as? [String: Any]
            answer.decline = CardDeclineReason(stripeCode: (error?["decline_code"] ?? error?["code"]) as? String)
        }
        return answer
    }

    /// One call, retried after no answer, a 5xx or a 429; a 402 is returned for the caller to read, any other 4xx
    /// thrown as `.refused` with Stripe's message.
    private func call(_ method: HTTPMethod, _ path: String, body: String?, key: String?) async throws(CardNetworkError) -> Answer {
        var request = HTTPClientRequest(url: settings.apiURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer " + settings.secretKey)
        request.headers.add(name: "Stripe-Version", value: Self.apiVersion)
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let seconds = settings.timeout.components.seconds
        for attempt in 0..<3 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(500 * attempt)) }
            let response: HTTPClientResponse
            let bytes: ByteBuffer
            do {
                response = try await HTTPClient.shared.execute(request, timeout: .seconds(seconds))
                bytes = try await response.body.collect(upTo: 1 << 20)
            } catch {
                logger.warning("card network: no answer", metadata: ["path": "\(Self.loggable(path))", "error": "\(error)"])
                continue
            }
            let status = Int(response.status.code)
            if status >= 500 || status == 429 {
                logger.warning("card network: \(status)", metadata: ["path": "\(Self.loggable(path))"])
                continue
            }
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
            if status >= 400 && status != 402 {
                let message = (json["error"] as? [String: Any])?["message"] as? String ?? "HTTP \(status)"
                logger.error("card network refused a call", metadata: [
                    "path": "\(Self.loggable(path))", "status": "\(status)", "message": "\(message)",
                ])
                throw .refused(status: status, message: message)
            }
            return Answer(status: status, json: json)
        }
        throw .unavailable
    }

    private static func malformed(_ answer: Answer) -> CardNetworkError {
        .refused(status: answer.status, message: "The card network's answer lacks a field Skiff needs.")
    }

    /// The path without ids, for the log: `/v1/payment_intents/…/confirm`.
    private static func loggable(_ path: String) -> String {
        path.split(separator: "/").map { $0.contains("_") && $0 != "payment_intents" ? "…" : String($0) }
            .joined(separator: "/").replacingOccurrences(of: "v1", with: "/v1")
    }

    private static func pathComponent(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "_-"))) ?? id
    }

    /// Stripe's brand names ("Visa", "MasterCard", "American Express") as Skiff's.
    static func brand(_ name: String?) -> CardBrand? {
        let name = name?.lowercased().replacingOccurrences(of: " ", with: "")
        if name == "amex" { return .amex }
        return CardBrand.allCases.first { $0 != .unknown && $0.displayName.lowercased().replacingOccurrences(of: " ", with: "") == name }
    }
}
