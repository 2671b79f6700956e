import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Top-up routes")
struct TopUpRoutesTests {
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    /// A test server whose card network is the simulated one without latency (or `network`).
    private func makeServer(network: any CardNetwork = SimulatedCardNetwork(latency: .zero)) throws -> TestServer {
        var server = try TestServer()
        server.configuration.cardNetwork = network
        return server
    }

    /// Registers Sam (with $1,000.00) and adds a card with `number`; returns Sam and the card's id.
    private func userWithCard(
        _ server: TestServer, _ client: any TestClientProtocol, number: String = Seeds.visa
    ) async throws -> (user: Registered, cardID: String) {
        let user = try await server.register(client)
        let added = try await server.addCard(client, token: user.token, number: number)
        #expect(added.status == .created)
        return (user, try #require(added.json["id"] as? String))
    }

    private func topUp(
        _ client: any TestClientProtocol, _ token: String, card: String, _ amount: Int64, key: String, currency: String = "USD"
    ) async throws -> Reply {
        try await client.send(
            .post, "/v1/topups", json: ["cardId": card, "amountMinor": amount, "currency": currency], token: token,
            idempotencyKey: key
        )
    }

    private func balance(_ client: any TestClientProtocol, _ token: String) async throws -> Int? {
        let me = try await client.send(.get, "/v1/me", token: token)
        return (me.json["balance"] as? [String: Any])?["amountMinor"] as? Int
    }

    @Test("$50 from a Visa: 201 with Location, the balance, a statement line and a notification; a retry answers the same top-up; the key with another body is 422")
    func completes() async throws {
        let server = try makeServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client)
            let made = try await topUp(client, sam.token, card: card, 5_000, key: "k-1")
            #expect(made.status == .created)
            let id = try #require(made.json["id"] as? String)
            #expect(made.headers[.location] == "/v1/topups/\(id)" && made.headers[Self.replayed] == nil)
            #expect(made.json["status"] as? String == "completed" && made.json["cardName"] as? String == "Visa •••• 4242")
            #expect((made.json["reference"] as? String)?.hasPrefix("SKF-") == true)
            let transferID = try #require(made.json["transferId"] as? String)
            #expect(!made.body.contains("4242424242424242"))
            #expect(try await balance(client, sam.token) == 100_000 + 5_000)

            let again = try await topUp(client, sam.token, card: card, 5_000, key: "k-1")
            #expect(again.status == .created && again.body == made.body && again.headers[Self.replayed] == "true")
            let other = try await topUp(client, sam.token, card: card, 5_001, key: "k-1")
            #expect(other.status == .unprocessableContent && other.problemType == "urn:skiff:problem:idempotency-key-reused")
            #expect(try await balance(client, sam.token) == 105_000)

            let line = try #require((try await client.send(.get, "/v1/transactions?limit=1", token: sam.token).json["items"] as? [[String: Any]])?.first)
            #expect(line["amountMinor"] as? Int == 5_000 && line["merchant"] as? String == "Visa •••• 4242")
            #expect(line["category"] as? String == "Top-up" && line["transferId"] as? String == transferID)
            let notifications = try await client.send(.get, "/v1/notifications", token: sam.token)
            #expect(notifications.array.compactMap { $0["title"] as? String }.contains("Added $50.00 from Visa •••• 4242"))
            let read = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
            #expect(read.status == .ok && read.body == made.body)
            let transfer = try await client.send(.get, "/v1/transfers/\(transferID)", token: sam.token)
            #expect(transfer.status == .ok && transfer.json["direction"] as? String == "received")
            let stranger = try await server.register(client, number: "202 555 0122")
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: stranger.token).status == .notFound)
        }
    }

    @Test("$250 asks for the issuer's code (202); confirming completes it once, the same code again answers it, a wrong one is 422")
    func challenge() async throws {
        let server = try makeServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client)
            let started = try await topUp(client, sam.token, card: card, 25_000, key: "big")
            #expect(started.status == .accepted)
            let id = try #require(started.json["topUpId"] as? String)
            #expect(started.headers[.location] == "/v1/topups/\(id)" && started.json["verificationId"] is String)
            let message = try #require(server.sender.last)
            #expect(message.purpose == .topUp && message.to == sam.phone)
            #expect(try await balance(client, sam.token) == 100_000)
            #expect(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).json["status"] as? String == "pending")
            let retried = try await topUp(client, sam.token, card: card, 25_000, key: "big")
            #expect(retried.status == .accepted && retried.body == started.body && retried.headers[Self.replayed] == "true")
            #expect(server.sender.messages.count(where: { $0.purpose == .topUp }) == 1)

            let wrongCode = message.code == "000000" ? "111111" : "000000"
            let wrong = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": wrongCode], token: sam.token)
            #expect(wrong.status == .unprocessableContent && wrong.problemType == "urn:skiff:problem:invalid-code")
            let confirmed = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": message.code], token: sam.token)
            #expect(confirmed.status == .ok && confirmed.json["status"] as? String == "completed")
            #expect(try await balance(client, sam.token) == 125_000)
            let again = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": message.code], token: sam.token)
            #expect(again.status == .ok && again.body == confirmed.body)
            let usedWrong = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": wrongCode], token: sam.token)
            #expect(usedWrong.status == .unprocessableContent)
            #expect(try await balance(client, sam.token) == 125_000)
            let stranger = try await server.register(client, number: "202 555 0122")
            let theirs = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": message.code], token: stranger.token)
            #expect(theirs.status == .notFound)
        }
    }

    @Test("The issuer's declines answer 402 with the reason and write nothing", arguments: [
        ("4000000000000002", "The card's issuer declined the payment. Use another card, or ask the issuer why."),
        ("4000000000009995", "The card's issuer declined the payment: the card has insufficient funds."),
        ("4000000000000069", "The card's issuer declined the payment: the card has expired."),
    ])
    func declined(number: String, reason: String) async throws {
        let server = try makeServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client, number: number)
            let refused = try await topUp(client, sam.token, card: card, 5_000, key: "d")
            #expect(refused.status.code == 402 && refused.problemType == "urn:skiff:problem:card-declined")
            #expect(refused.json["detail"] as? String == reason && refused.errorFields == ["cardId"])
            #expect(try await balance(client, sam.token) == 100_000)
            let lines = try await client.send(.get, "/v1/transactions?limit=5", token: sam.token).json["items"] as? [[String: Any]]
            #expect(lines?.contains { $0["category"] as? String == "Top-up" } == false)
        }
    }

    @Test("Refused with 422: a frozen, an expired, a removed, another user's and the Skiff card; zero, over the limit, another currency")
    func refusals() async throws {
        let server = try makeServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client)
            #expect(try await client.send(.put, "/v1/cards/\(card)/freeze", token: sam.token).status == .ok)
            let frozen = try await topUp(client, sam.token, card: card, 100, key: "1")
            #expect(frozen.status == .unprocessableContent && frozen.problemType == "urn:skiff:problem:card-not-usable")
            #expect(try await client.send(.delete, "/v1/cards/\(card)/freeze", token: sam.token).status == .ok)
            // The refused key is free for the request once the card may be used.
            #expect(try await topUp(client, sam.token, card: card, 100, key: "1").status == .created)

            let issued = try #require(try await client.send(.get, "/v1/cards", token: sam.token).array.first?["id"] as? String)
            let skiffCard = try await topUp(client, sam.token, card: issued, 100, key: "2")
            #expect(skiffCard.status == .unprocessableContent && skiffCard.problemType == "urn:skiff:problem:card-not-usable")
            let other = try await server.register(client, number: "202 555 0122")
            let theirCard = try #require(try await server.addCard(client, token: other.token, number: Seeds.mastercard).json["id"] as? String)
            let notMine = try await topUp(client, sam.token, card: theirCard, 100, key: "3")
            #expect(notMine.status == .unprocessableContent && notMine.errorFields == ["cardId"])
            #expect(try await client.send(.delete, "/v1/cards/\(card)", token: sam.token).status == .noContent)
            let removed = try await topUp(client, sam.token, card: card, 100, key: "4")
            #expect(removed.status == .unprocessableContent && removed.errorFields == ["cardId"])
            // The first top-up, from the card since removed, is still answered for its key.
            #expect(try await topUp(client, sam.token, card: card, 100, key: "1").status == .created)

            let zero = try await topUp(client, sam.token, card: theirCard, 0, key: "5")
            #expect(zero.status == .unprocessableContent && zero.errorFields == ["amountMinor"])
            let tooMuch = try await topUp(client, sam.token, card: theirCard, 1_000_001, key: "6")
            #expect(tooMuch.status == .unprocessableContent && tooMuch.errorFields == ["amountMinor"])
            let euros = try await topUp(client, sam.token, card: theirCard, 100, key: "7", currency: "EUR")
            #expect(euros.status == .unprocessableContent && euros.errorFields == ["currency"])
            let noKey = try await client.send(
                .post, "/v1/topups", json: ["cardId": theirCard, "amountMinor": 100, "currency": "USD"], token: sam.token
            )
            #expect(noKey.status == .badRequest)

            // A card good through this month (September 2026) has expired once October starts.
            let expiring = try await client.send(
                .post, "/v1/cards",
                json: ["number": Seeds.discover, "expiryMonth": 9, "expiryYear": 2026, "cvc": "123", "holderName": "Sam Carter"],
                token: sam.token, idempotencyKey: "card-9-2026"
            )
            let expiringID = try #require(expiring.json["id"] as? String)
            #expect(try await topUp(client, sam.token, card: expiringID, 100, key: "8").status == .created)
            server.clock.advance(by: 10 * 86_400)
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202 555 0100", "password": Seeds.password]
            )
            let token = try #require(login.json["token"] as? String)
            let expired = try await topUp(client, token, card: expiringID, 100, key: "9")
            #expect(expired.status == .unprocessableContent && expired.problemType == "urn:skiff:problem:card-not-usable")
            #expect(try await balance(client, token) == 100_000 + 100 + 100)
        }
    }

    @Test("A network that does not answer: 503 and nothing written; the same key then completes once")
    func timeoutThenRetry() async throws {
        let network = FlakyCardNetwork(timeouts: 1)
        let server = try makeServer(network: network)
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client)
            let lost = try await topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(lost.status == .serviceUnavailable && lost.problemType == "urn:skiff:problem:card-network-unavailable")
            #expect(try await balance(client, sam.token) == 100_000)
            let retried = try await topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(retried.status == .created && retried.headers[Self.replayed] == nil)
            let again = try await topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(again.status == .created && again.body == retried.body && again.headers[Self.replayed] == "true")
            #expect(try await balance(client, sam.token) == 102_000)
            // Every try at the one top-up reached the network with the same key.
            #expect(Set(network.keys).count == 1 && network.keys.count == 2)

            // The simulated network's test card that never answers.
            let timeoutCard = try #require(
                try await server.addCard(client, token: sam.token, number: "4000000000000119").json["id"] as? String
            )
            #expect(try await topUp(client, sam.token, card: timeoutCard, 100, key: "t2").status == .serviceUnavailable)
        }
    }

    @Test("A network that does not answer at the confirmation: 503, and the same code completes it once")
    func timeoutAtConfirm() async throws {
        let network = FlakyCardNetwork(timeouts: 0)
        let server = try makeServer(network: network)
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await userWithCard(server, client)
            let started = try await topUp(client, sam.token, card: card, 30_000, key: "c")
            let id = try #require(started.json["topUpId"] as? String)
            let code = try #require(server.sender.last?.code)
            network.timeOut(next: 1)
            let lost = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": code], token: sam.token)
            #expect(lost.status == .serviceUnavailable)
            #expect(try await balance(client, sam.token) == 100_000)
            let done = try await client.send(.post, "/v1/topups/\(id)/confirm", json: ["code": code], token: sam.token)
            #expect(done.status == .ok && done.json["status"] as? String == "completed")
            #expect(try await balance(client, sam.token) == 130_000)
        }
    }
}

/// A card network that times out the next `timeouts` authorizations, then answers like the simulated one, and
/// records the idempotency key of every authorization asked of it.
final class FlakyCardNetwork: CardNetwork {
    private let state: NIOLockedValueBox<(timeouts: Int, keys: [String])>
    private let simulated = SimulatedCardNetwork(latency: .zero)

    init(timeouts: Int) {
        state = NIOLockedValueBox((timeouts, []))
    }

    var keys: [String] { state.withLockedValue { $0.keys } }

    func timeOut(next count: Int) {
        state.withLockedValue { $0.timeouts = count }
    }

    func authorize(_ request: CardAuthorizationRequest) async throws -> CardAuthorization {
        let timesOut = state.withLockedValue { state in
            state.keys.append(request.idempotencyKey)
            guard state.timeouts > 0 else { return false }
            state.timeouts -= 1
            return true
        }
        if timesOut { throw CardNetworkError.timedOut }
        return try await simulated.authorize(request)
    }
}
