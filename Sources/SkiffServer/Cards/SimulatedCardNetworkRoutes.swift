import Foundation
import Hummingbird
import SkiffCore

/// The part of Stripe's API the wallet and a card's holder speak to the network itself, served for the simulated
/// network under `SimulatedCardNetwork.apiPath` (loopback only): `POST /v1/tokens` (a card's number in, a token out,
/// the number kept nowhere and never logged) and `POST /v1/payment_intents/{id}/_authenticate` (the holder confirms a
/// payment, `success=true`, or refuses it; `GET` on the same address is the page a browser shows the holder, whose
/// buttons post there). Answers as Stripe does: form fields in, JSON out, errors as
/// `{"error": {"type", "code", "param", "message"}}`; to the page's own forms, a page.
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
        // The address the wallet shows is opened in a browser: a page that asks the holder, whose buttons post here.
        router.get(RouterPath(path + "/v1/payment_intents/:id/_authenticate")) { _, context in
            let id = try context.parameters.require("id")
            guard let last4 = network.waitingForHolder(paymentID: id) else {
                return Self.nothingToConfirm(404)
            }
            return Self.page(200, "Confirm a payment", """
                The card ending \(last4) is asked to pay Skiff. This is the simulated card network's stand-in for \
                your bank's own page (3-D Secure): no money moves outside this server.
                """, buttons: true)
        }
        router.post(RouterPath(path + "/v1/payment_intents/:id/_authenticate")) { request, context in
            let id = try context.parameters.require("id")
            let fromPage = request.headers[.accept]?.contains("text/html") == true
            let success = try await Self.form(request)["success"] == "true"
            guard network.authenticate(paymentID: id, success: success) else {
                if fromPage {
                    return Self.nothingToConfirm(400)
                }
                return Self.error(400, type: "invalid_request_error", code: nil, param: nil,
                                  message: "This payment does not wait for its holder to confirm it.")
            }
            if fromPage {
                return Self.page(200, success ? "Payment confirmed" : "Payment refused", success
                    ? "Go back to Skiff: the money is added there in a moment."
                    : "Go back to Skiff: the top-up is declined and nothing is charged.")
            }
            return Self.json(200, ["id": id, "object": "payment_intent", "status": success ? "succeeded" : "requires_payment_method"])
        }
    }

    /// The page for a payment that waits for no one: confirmed, refused or never made.
    private static func nothingToConfirm(_ status: Int) -> Response {
        page(status, "Nothing to confirm", "This payment does not wait for its holder to confirm it: it was confirmed, refused or never made.")
    }

    /// A small page for a browser: a title, a sentence and, when asked, the buttons that confirm or refuse the payment
    /// (forms posting `success` to the page's own address). The text is this file's own, never the request's.
    private static func page(_ status: Int, _ title: String, _ text: String, buttons: Bool = false) -> Response {
        let form = buttons ? """
            <form method="post"><input type="hidden" name="success" value="true"><button>Confirm the payment</button></form>
            <form method="post"><input type="hidden" name="success" value="false"><button>Refuse it</button></form>
            """ : ""
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head>
            <body style="font-family: sans-serif; max-width: 36em; margin: 3em auto"><h1>\(title)</h1><p>\(text)</p>\(form)</body></html>
            """
        return Response(
            status: .init(code: status),
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
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
