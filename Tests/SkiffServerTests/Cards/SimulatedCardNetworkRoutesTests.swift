import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SkiffCore
import Testing
@testable import SkiffServer

/// The part of Stripe's API the simulated network serves on Skiff's own server (loopback only): tokenizing a card
/// (`POST /simulated-card-network/v1/tokens`) and a holder's 3-D Secure answer (`…/payment_intents/{id}/_authenticate`),
/// answered as Stripe answers, so the wallet has one path.
@Suite("Simulated card network routes")
struct SimulatedCardNetworkRoutesTests {
    static let tokens = SimulatedCardNetwork.apiPath + "/v1/tokens"

    /// Stripe's error object of a reply.
    private func stripeError(_ reply: Reply) -> [String: String] {
        (reply.json["error"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    @Test("A good card gets a token (200) as Stripe answers one: the card's brand, last four and expiry, never its number; the token adds the card")
    func tokenizes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.sendForm(
                Self.tokens, FormBody.card(key: "pk_simulated", number: "3782 822463 10005", expiryMonth: 4, expiryYear: 2030, cvc: "7319")
            )
            #expect(reply.status == .ok && reply.contentType == "application/json")
            let token = try #require(reply.json["id"] as? String)
            #expect(token.hasPrefix("tok_sim_") && reply.json["object"] as? String == "token" && reply.json["type"] as? String == "card")
            let card = try #require(reply.json["card"] as? [String: Any])
            #expect(card["brand"] as? String == "American Express" && card["last4"] as? String == "0005")
            #expect(card["exp_month"] as? Int == 4 && card["exp_year"] as? Int == 2030)
            #expect(!reply.body.contains(Seeds.amex) && !reply.body.contains("7319"))
            // A form's `+` is a space, as a browser writes it; a two-digit year is 20YY.
            let plus = try await client.sendForm(
                Self.tokens, body: "key=pk_simulated&card%5Bnumber%5D=4242+4242+4242+4242&card%5Bexp_month%5D=12&card%5Bexp_year%5D=31&card%5Bcvc%5D=123"
            )
            #expect(plus.status == .ok && (plus.json["card"] as? [String: Any])?["exp_year"] as? Int == 2031)

            let user = try await server.register(client)
            let added = try await server.addCard(client, token: user.token, cardToken: token)
            #expect(added.status == .created)
            #expect(added.json["brand"] as? String == "amex" && added.json["last4"] as? String == "0005")
            #expect(added.json["expiryMonth"] as? Int == 4 && added.json["expiryYear"] as? Int == 2030)
        }
    }

    @Test("Bad card details are refused with 402 and Stripe's card_error, code and param", arguments: [
        (["card[number]": "4242424242424241"], "incorrect_number", "number"),
        (["card[number]": "4242"], "incorrect_number", "number"),
        (["card[number]": "4242-abcd-4242-4242"], "incorrect_number", "number"),
        (["card[number]": ""], "incorrect_number", "number"),
        (["card[exp_month]": "13"], "invalid_expiry_year", "exp_year"),
        (["card[exp_month]": "0"], "invalid_expiry_year", "exp_year"),
        (["card[exp_year]": "2020"], "invalid_expiry_year", "exp_year"),
        (["card[exp_year]": "next"], "invalid_expiry_year", "exp_year"),
        (["card[exp_year]": ""], "invalid_expiry_year", "exp_year"),
        (["card[cvc]": "12"], "invalid_cvc", "cvc"),
        (["card[cvc]": "1234"], "invalid_cvc", "cvc"),
        (["card[cvc]": "12a"], "invalid_cvc", "cvc"),
        (["card[cvc]": ""], "invalid_cvc", "cvc"),
        (["card[number]": Seeds.amex, "card[cvc]": "123"], "invalid_cvc", "cvc"),
        // The number is checked first, then the expiry, then the security code, as Stripe does.
        (["card[number]": "1", "card[exp_month]": "13", "card[cvc]": "1"], "incorrect_number", "number"),
        (["card[exp_month]": "13", "card[cvc]": "1"], "invalid_expiry_year", "exp_year"),
    ] as [([String: String], String, String)])
    func refusesBadCards(overrides: [String: String], code: String, param: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            var fields = ["key": "pk_simulated", "card[number]": Seeds.visa, "card[exp_month]": "12", "card[exp_year]": "2031", "card[cvc]": "123"]
            fields.merge(overrides) { $1 }
            let body = FormEncoding.encode(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let reply = try await client.sendForm(Self.tokens, body: body)
            #expect(reply.status.code == 402)
            #expect(reply.contentType == "application/json")
            let error = stripeError(reply)
            #expect(error["type"] == "card_error" && error["code"] == code && error["param"] == param, "\(reply.body)")
            #expect(error["message"]?.isEmpty == false)
            #expect(reply.json["id"] == nil)
        }
    }

    @Test("Without the publishable key, or with another, 401 and no token")
    func wrongKey() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            for key in ["pk_live_other", "sk_simulated", ""] {
                let reply = try await client.sendForm(Self.tokens, FormBody.card(key: key, number: Seeds.visa))
                #expect(reply.status == .unauthorized, "\(key)")
                #expect(stripeError(reply)["type"] == "invalid_request_error" && reply.json["id"] == nil)
            }
            let noKey = try await client.sendForm(Self.tokens, ["card[number]": Seeds.visa, "card[exp_month]": "12", "card[exp_year]": "2031", "card[cvc]": "123"])
            #expect(noKey.status == .unauthorized)
        }
    }

    @Test("Confirming a payment that does not wait for its holder answers 400 as Stripe does")
    func authenticateNothing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            // A charged card's payment, a declined one's, and no payment of this network's.
            for id in ["pi_sim_nothing_4242", "pi_sim_nothing_0341", "other"] {
                let reply = try await client.sendForm(SimulatedCardNetwork.apiPath + "/v1/payment_intents/\(id)/_authenticate", ["success": "true"])
                #expect(reply.status == .badRequest, "\(id)")
                #expect(stripeError(reply)["type"] == "invalid_request_error")
            }
        }
    }

    @Test("The address the wallet shows opens in a browser: a page that asks the holder, whose button confirms the payment; then nothing waits")
    func holderPage() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let address = SimulatedCardNetwork.apiPath + "/v1/payment_intents/pi_sim_0123456789abcdef01234567_3184/_authenticate"
            let page = try await client.send(.get, address)
            #expect(page.status == .ok && page.contentType == "text/html; charset=utf-8")
            #expect(page.body.contains("The card ending 3184") && page.body.contains("<form method=\"post\">"))
            #expect(page.body.contains("name=\"success\" value=\"true\"") && page.body.contains("name=\"success\" value=\"false\""))
            #expect(page.headers[.contentSecurityPolicy]?.contains("form-action 'self'") == true)

            // The browser posts the form and reads a page back.
            let posted = try await client.executeRequest(
                uri: address, method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .accept: "text/html,application/xhtml+xml,*/*;q=0.8"],
                body: ByteBuffer(string: "success=true")
            )
            #expect(posted.status == .ok && posted.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: posted.body).contains("Payment confirmed"))

            // Confirmed, or never waiting (a card that does not ask), it is nothing to confirm.
            for id in ["pi_sim_0123456789abcdef01234567_3184", "pi_sim_0123456789abcdef01234567_4242"] {
                let again = try await client.send(.get, SimulatedCardNetwork.apiPath + "/v1/payment_intents/\(id)/_authenticate")
                #expect(again.status == .notFound && again.body.contains("Nothing to confirm"), "\(id)")
            }
        }
    }

    @Test("GET /v1/card-network tells the wallet where to tokenize: the simulated network on this server, or Stripe's API with the operator's publishable key")
    func cardNetwork() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(.get, "/v1/card-network", token: user.token)
            #expect(reply.status == .ok)
            #expect(reply.json["network"] as? String == "simulated" && reply.json["publishableKey"] as? String == "pk_simulated")
            #expect(reply.json["apiUrl"] as? String == "/simulated-card-network")
            #expect(try await client.send(.get, "/v1/card-network").status == .unauthorized)
        }
        let stripe = try server.usingStripe(apiURL: "http://127.0.0.1:9/")
        try await stripe.withRouter { client in
            let user = try await stripe.register(client, number: "202 555 0101")
            let reply = try await client.send(.get, "/v1/card-network", token: user.token)
            #expect(reply.json["network"] as? String == "stripe" && reply.json["publishableKey"] as? String == "pk_test_skiff")
            #expect(reply.json["apiUrl"] as? String == "http://127.0.0.1:9")
            // Only the simulated network serves Stripe's protocol on Skiff's server.
            let tokens = try await client.sendForm(Self.tokens, FormBody.card(key: "pk_simulated", number: Seeds.visa))
            #expect(tokens.status == .notFound)
        }
    }
}
