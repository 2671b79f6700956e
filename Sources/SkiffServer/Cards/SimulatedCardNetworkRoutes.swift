import Foundation
import Hummingbird
import SkiffCore

/// The part of Stripe's API the wallet and a card's holder speak to the network itself, served for the simulated
/// network under `SimulatedCardNetwork.apiPath` (loopback only): `POST /v1/tokens` (a card's number in, a token out,
/// the number kept nowhere and never logged) and `POST /v1/payment_intents/{id}/_authenticate` (the holder confirms a
/// payment, `success=true`, or refuses it). Answers as Stripe does: form fields in, JSON out, errors as
/// `{"error": {"type", "code", "param", "message"}}`.
enum SimulatedCardNetworkRoutes {
    static func add(to router: Router<SkiffRequestContext>, network: SimulatedCardNetwork) {
        let path = SimulatedCardNetwork.apiPath
        router.post(RouterPath(path + "/v1/tokens")) { request, _ in
            let form = try await Self.form(request)
            guard form["key"] == SimulatedCardNetwork.publishableKey else {
                return Self.error(401, type: "invalid_request_error", code: nil, param: nil,
                                  message: "Invalid API key: send the publishable key as `key`.")
            }
            let number = form["card[number]"] ?? ""
            guard let card = try? CardNumber(number) else {
                return Self.error(402, type: "card_error", code: "incorrect_number", param: "number",
                                  message: "Your card number is incorrect.")
            }
            guard let month = form["card[exp_month]"].flatMap(Int.init), let year = form["card[exp_year]"].flatMap(Int.init),
                  let expiry = try? CardExpiry(month: month, year: year, now: Date())
            else {
                return Self.error(402, type: "card_error", code: "invalid_expiry_year", param: "exp_year",
                                  message: "Your card's expiration date is invalid.")
            }
            guard (try? CardSecurityCode.validate(form["card[cvc]"] ?? "", brand: card.brand)) != nil else {
                return Self.error(402, type: "card_error", code: "invalid_cvc", param: "cvc",
                                  message: "Your card's security code is invalid.")
            }
            guard let token = network.token(number: card.digits, expiryMonth: expiry.month, expiryYear: expiry.year) else {
                return Self.error(402, type: "card_error", code: "incorrect_number", param: "number",
                                  message: "Your card number is incorrect.")
            }
            return Self.json(200, [
                "id": token, "object": "token", "type": "card",
                "card": [
                    "brand": card.brand.displayName, "last4": card.last4, "exp_month": expiry.month, "exp_year": expiry.year,
                ] as [String: Any],
            ])
        }
        router.post(RouterPath(path + "/v1/payment_intents/:id/_authenticate")) { request, context in
            let id = try context.parameters.require("id")
            let success = try await Self.form(request)["success"] == "true"
            guard network.authenticate(paymentID: id, success: success) else {
                return Self.error(400, type: "invalid_request_error", code: nil, param: nil,
                                  message: "This payment does not wait for its holder to confirm it.")
            }
            return Self.json(200, ["id": id, "object": "payment_intent", "status": success ? "succeeded" : "requires_payment_method"])
        }
    }

    /// The request's `application/x-www-form-urlencoded` fields (a body of 16 KiB at most).
    private static func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 16 * 1024)
        var components = URLComponents()
        components.percentEncodedQuery = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }

    private static func error(_ status: Int, type: String, code: String?, param: String?, message: String) -> Response {
        var error: [String: Any] = ["type": type, "message": message]
        if let code { error["code"] = code }
        if let param { error["param"] = param }
        return json(status, ["error": error])
    }

    private static func json(_ status: Int, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
