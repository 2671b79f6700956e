import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import SkiffCore
import Testing
@testable import SkiffServer

extension TestServer {
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    /// Registers Sam (with $1,000.00) on `number` and adds a card with `cardNumber`; returns Sam and the card's id.
    func userWithCard(
        _ client: any TestClientProtocol, number: String = "202 555 0100", cardNumber: String = Seeds.visa
    ) async throws -> (user: Registered, cardID: String) {
        let user = try await register(client, number: number)
        let added = try await addCard(client, token: user.token, number: cardNumber)
        guard added.status == .created, let id = added.json["id"] as? String else {
            throw TestFailure("adding \(cardNumber) answered \(added.status): \(added.body)")
        }
        return (user, id)
    }

    /// `POST /v1/topups`.
    func topUp(
        _ client: any TestClientProtocol, _ token: String, card: String, _ amount: Int64, key: String, currency: String = "USD"
    ) async throws -> Reply {
        try await client.send(
            .post, "/v1/topups", json: ["cardId": card, "amountMinor": amount, "currency": currency], token: token,
            idempotencyKey: key
        )
    }

    /// Runs `body` with the repositories of this server's database, opened beside the running server (migrated by
    /// it: this store only checks that it is current).
    func withRepositories<Value: Sendable>(_ body: (Repositories) async throws -> Value) async throws -> Value {
        let store = try await openRepositoryStore(configuration.database, logger: TestStore.logger, migrations: .requireCurrent)
        do {
            let value = try await body(store.repositories)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    /// The top-up the user's `key` made, as stored.
    func storedTopUp(userID: String, key: String) async throws -> TopUpRecord? {
        try await withRepositories { try await $0.topUps.topUp(userID: userID, idempotencyKey: key) }
    }

    /// The user's top-up lines in the statement.
    func topUpLines(_ client: any TestClientProtocol, _ token: String) async throws -> [[String: Any]] {
        let page = try await client.send(.get, "/v1/transactions?limit=50", token: token)
        return (page.json["items"] as? [[String: Any]] ?? []).filter { $0["category"] as? String == StatementLine.topUpCategory }
    }
}

/// Serialized, as the other top-up suites: most cases run a server on PostgreSQL too, whose pool grows with requests
/// at once; one case of each suite at a time keeps the suite within a development PostgreSQL's connections
/// (scripts/postgres-dev.sh allows 300).
@Suite("Top-up routes", .serialized)
struct TopUpRoutesTests {
    static let replayed = TestServer.replayed

    @Test("$50 from a Visa: 201 with Location, the balance, a statement line and a notification; a retry answers the same top-up; the key with another body is 422", arguments: TestStore.allCases)
    func completes(store: TestStore) async throws {
        let base = try TestServer()
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let (sam, card) = try await server.userWithCard(client)
                let made = try await server.topUp(client, sam.token, card: card, 5_000, key: "k-1")
                #expect(made.status == .created)
                let id = try #require(made.json["id"] as? String)
                #expect(made.headers[.location] == "/v1/topups/\(id)" && made.headers[Self.replayed] == nil)
                #expect(made.json["status"] as? String == "completed" && made.json["cardName"] as? String == "Visa •••• 4242")
                #expect((made.json["reference"] as? String)?.hasPrefix("SKF-") == true && made.json["actionUrl"] == nil)
                let transferID = try #require(made.json["transferId"] as? String)
                #expect(!made.body.contains("4242424242424242"))
                #expect(try await server.balance(client, sam.token) == 100_000 + 5_000)

                let again = try await server.topUp(client, sam.token, card: card, 5_000, key: "k-1")
                #expect(again.status == .created && again.body == made.body && again.headers[Self.replayed] == "true")
                let other = try await server.topUp(client, sam.token, card: card, 5_001, key: "k-1")
                #expect(other.status == .unprocessableContent && other.problemType == "urn:skiff:problem:idempotency-key-reused")
                #expect(try await server.balance(client, sam.token) == 105_000)

                let line = try #require(try await server.topUpLines(client, sam.token).first)
                #expect(line["amountMinor"] as? Int == 5_000 && line["merchant"] as? String == "Visa •••• 4242")
                #expect(line["transferId"] as? String == transferID)
                let notifications = try await client.send(.get, "/v1/notifications", token: sam.token)
                #expect(notifications.array.compactMap { $0["title"] as? String }.contains("Added $50.00 from Visa •••• 4242"))
                let read = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
                #expect(read.status == .ok && read.body == made.body)
                let transfer = try await client.send(.get, "/v1/transfers/\(transferID)", token: sam.token)
                #expect(transfer.status == .ok && transfer.json["direction"] as? String == "received")
                // The payment at the network is kept with the top-up, and is what brought the money.
                let stored = try #require(try await server.storedTopUp(userID: sam.userID, key: "k-1"))
                #expect(stored.paymentID?.hasPrefix("pi_sim_") == true && stored.authorizationID == stored.paymentID)
                #expect(stored.cardFingerprint?.hasPrefix("simulated:") == true)
                let stranger = try await server.register(client, number: "202 555 0122")
                #expect(try await client.send(.get, "/v1/topups/\(id)", token: stranger.token).status == .notFound)
            }
        }
    }

    @Test("…3184 asks its holder to confirm: 202 pending with actionUrl; confirmed there, reading the top-up completes it and credits it once", arguments: TestStore.allCases)
    func threeDSecure(store: TestStore) async throws {
        let base = try TestServer()
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let (sam, card) = try await server.userWithCard(client, cardNumber: "4000002760003184")
                let started = try await server.topUp(client, sam.token, card: card, 25_000, key: "big")
                #expect(started.status == .accepted)
                let id = try #require(started.json["id"] as? String)
                #expect(started.headers[.location] == "/v1/topups/\(id)" && started.headers[Self.replayed] == nil)
                #expect(started.json["status"] as? String == "pending" && started.json["transferId"] == nil)
                let actionURL = try #require(started.json["actionUrl"] as? String)
                #expect(actionURL.hasPrefix("/simulated-card-network/v1/payment_intents/pi_sim_") && actionURL.hasSuffix("_3184/_authenticate"))
                #expect(try await server.balance(client, sam.token) == 100_000)

                let pending = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
                #expect(pending.status == .ok && pending.json["status"] as? String == "pending" && pending.json["actionUrl"] as? String == actionURL)
                let retried = try await server.topUp(client, sam.token, card: card, 25_000, key: "big")
                #expect(retried.status == .accepted && retried.body == started.body && retried.headers[Self.replayed] == "true")

                let confirmed = try await client.sendForm(actionURL, ["success": "true"])
                #expect(confirmed.status == .ok && confirmed.json["status"] as? String == "succeeded")
                // Nothing moves until the server hears of it.
                #expect(try await server.balance(client, sam.token) == 100_000)
                let done = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
                #expect(done.status == .ok && done.json["status"] as? String == "completed")
                #expect(done.json["transferId"] is String && done.json["actionUrl"] == nil && done.json["completedAt"] is String)
                #expect(try await server.balance(client, sam.token) == 125_000)
                #expect(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).body == done.body)
                let replay = try await server.topUp(client, sam.token, card: card, 25_000, key: "big")
                #expect(replay.status == .created && replay.body == done.body && replay.headers[Self.replayed] == "true")
                // Confirming twice is refused by the network, and changes nothing here.
                #expect(try await client.sendForm(actionURL, ["success": "true"]).status == .badRequest)
                #expect(try await server.balance(client, sam.token) == 125_000)
                #expect(try await server.topUpLines(client, sam.token).count == 1)
                let stranger = try await server.register(client, number: "202 555 0122")
                #expect(try await client.send(.get, "/v1/topups/\(id)", token: stranger.token).status == .notFound)
            }
        }
    }

    @Test("A holder who refuses the confirmation (success=false) declines the top-up: read, it is declined; its key answers 402; nothing moves", arguments: TestStore.allCases)
    func threeDSecureRefused(store: TestStore) async throws {
        let base = try TestServer()
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let (sam, card) = try await server.userWithCard(client, cardNumber: "4000002760003184")
                let started = try await server.topUp(client, sam.token, card: card, 5_000, key: "no")
                let id = try #require(started.json["id"] as? String)
                let actionURL = try #require(started.json["actionUrl"] as? String)
                #expect(try await client.sendForm(actionURL, ["success": "false"]).status == .ok)
                let declined = try await client.send(.get, "/v1/topups/\(id)", token: sam.token)
                #expect(declined.status == .ok && declined.json["status"] as? String == "declined")
                #expect(declined.json["declineReason"] as? String == "not-confirmed" && declined.json["actionUrl"] == nil)
                let replay = try await server.topUp(client, sam.token, card: card, 5_000, key: "no")
                #expect(replay.status.code == 402 && replay.problemType == "urn:skiff:problem:card-declined")
                #expect(replay.json["detail"] as? String == CardDeclineReason.notConfirmed.message)
                #expect(try await server.balance(client, sam.token) == 100_000)
                #expect(try await server.topUpLines(client, sam.token).isEmpty)
                // A declined top-up is final: the holder changing their mind does not bring it back.
                #expect(try await client.sendForm(actionURL, ["success": "true"]).status == .badRequest)
                #expect(try await client.send(.get, "/v1/topups/\(id)", token: sam.token).json["status"] as? String == "declined")
            }
        }
    }

    @Test("Declines at the charge answer 402 with the reason; the top-up is kept declined and nothing moves", arguments: [
        ("4000000000000341", CardDeclineReason.generic), ("4000000000009995", .insufficientFunds), ("4000000000000069", .expiredCard),
    ])
    func declined(number: String, reason: CardDeclineReason) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await server.userWithCard(client, cardNumber: number)
            let refused = try await server.topUp(client, sam.token, card: card, 5_000, key: "d")
            #expect(refused.status.code == 402 && refused.problemType == "urn:skiff:problem:card-declined")
            #expect(refused.json["detail"] as? String == reason.message && refused.errorFields == ["cardId"])
            #expect(try await server.balance(client, sam.token) == 100_000)
            #expect(try await server.topUpLines(client, sam.token).isEmpty)
            let stored = try #require(try await server.storedTopUp(userID: sam.userID, key: "d"))
            #expect(stored.status == .declined && stored.declineReason == reason.rawValue && stored.transferID == nil)
            let read = try await client.send(.get, "/v1/topups/\(stored.id)", token: sam.token)
            #expect(read.json["status"] as? String == "declined" && read.json["declineReason"] as? String == reason.rawValue)
            let again = try await server.topUp(client, sam.token, card: card, 5_000, key: "d")
            #expect(again.status.code == 402 && again.json["detail"] as? String == reason.message)
        }
    }

    @Test("Refused with 422: a frozen, an expired, a removed, another user's and the Skiff card; zero, over the limit, another currency")
    func refusals() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await server.userWithCard(client)
            #expect(try await client.send(.put, "/v1/cards/\(card)/freeze", token: sam.token).status == .ok)
            let frozen = try await server.topUp(client, sam.token, card: card, 100, key: "1")
            #expect(frozen.status == .unprocessableContent && frozen.problemType == "urn:skiff:problem:card-not-usable")
            #expect(try await client.send(.delete, "/v1/cards/\(card)/freeze", token: sam.token).status == .ok)
            // The refused key is free for the request once the card may be used.
            #expect(try await server.topUp(client, sam.token, card: card, 100, key: "1").status == .created)

            let issued = try #require(try await client.send(.get, "/v1/cards", token: sam.token).array.first?["id"] as? String)
            let skiffCard = try await server.topUp(client, sam.token, card: issued, 100, key: "2")
            #expect(skiffCard.status == .unprocessableContent && skiffCard.problemType == "urn:skiff:problem:card-not-usable")
            let other = try await server.register(client, number: "202 555 0122")
            let theirCard = try #require(try await server.addCard(client, token: other.token, number: Seeds.mastercard).json["id"] as? String)
            let notMine = try await server.topUp(client, sam.token, card: theirCard, 100, key: "3")
            #expect(notMine.status == .unprocessableContent && notMine.errorFields == ["cardId"])
            #expect(try await client.send(.delete, "/v1/cards/\(card)", token: sam.token).status == .noContent)
            let removed = try await server.topUp(client, sam.token, card: card, 100, key: "4")
            #expect(removed.status == .unprocessableContent && removed.errorFields == ["cardId"])
            // The first top-up, from the card since removed, is still answered for its key.
            #expect(try await server.topUp(client, sam.token, card: card, 100, key: "1").status == .created)

            let zero = try await server.topUp(client, sam.token, card: theirCard, 0, key: "5")
            #expect(zero.status == .unprocessableContent && zero.errorFields == ["amountMinor"])
            let tooMuch = try await server.topUp(client, sam.token, card: theirCard, 1_000_001, key: "6")
            #expect(tooMuch.status == .unprocessableContent && tooMuch.errorFields == ["amountMinor"])
            let euros = try await server.topUp(client, sam.token, card: theirCard, 100, key: "7", currency: "EUR")
            #expect(euros.status == .unprocessableContent && euros.errorFields == ["currency"])
            let noKey = try await client.send(
                .post, "/v1/topups", json: ["cardId": theirCard, "amountMinor": 100, "currency": "USD"], token: sam.token
            )
            #expect(noKey.status == .badRequest)

            // A card good through this month (September 2026) has expired once October starts.
            let expiring = try await server.addCard(
                client, token: sam.token, cardToken: try server.mintedCardToken(number: Seeds.discover, expiryMonth: 9, expiryYear: 2026)
            )
            let expiringID = try #require(expiring.json["id"] as? String)
            #expect(try await server.topUp(client, sam.token, card: expiringID, 100, key: "8").status == .created)
            server.clock.advance(by: 10 * 86_400)
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202 555 0100", "password": Seeds.password]
            )
            let token = try #require(login.json["token"] as? String)
            let expired = try await server.topUp(client, token, card: expiringID, 100, key: "9")
            #expect(expired.status == .unprocessableContent && expired.problemType == "urn:skiff:problem:card-not-usable")
            #expect(try await server.balance(client, token) == 100_000 + 100 + 100)
        }
    }

    @Test("A card added before the card network (no network id) cannot be charged: 422 card-not-usable, remove it and add it again", arguments: TestStore.allCases)
    func cardFromBeforeTheNetwork(store: TestStore) async throws {
        let base = try TestServer()
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let sam = try await server.register(client)
                let legacy = CardRecord(
                    id: "legacy-card", userID: sam.userID, kind: .external, brand: "visa", last4: "1881", expiryMonth: 12,
                    expiryYear: 2031, holderName: "Sam Carter", status: .active, fingerprint: "legacy-fingerprint",
                    createdAt: server.clock.now()
                )
                try await server.withRepositories { try await $0.cards.insert(legacy, announcing: nil) }
                let refused = try await server.topUp(client, sam.token, card: "legacy-card", 1_000, key: "old")
                #expect(refused.status == .unprocessableContent && refused.problemType == "urn:skiff:problem:card-not-usable")
                #expect((refused.json["detail"] as? String)?.contains("remove it and add it again") == true)
                #expect(try await server.balance(client, sam.token) == 100_000)
                #expect(try await client.send(.delete, "/v1/cards/legacy-card", token: sam.token).status == .noContent)
            }
        }
    }

    @Test("A network that does not answer, wherever the answer is lost: 503 and nothing credited; the same key then completes it once, with one payment confirmed once", arguments: TestStore.allCases, [
        (SpyCardNetwork.Call.makePayment, SpyCardNetwork.Loss.before), (.makePayment, .after), (.confirm, .before),
        (.confirm, .after),
    ])
    func noAnswerThenRetry(store: TestStore, lost: (SpyCardNetwork.Call, SpyCardNetwork.Loss)) async throws {
        let spy = SpyCardNetwork()
        let base = try TestServer().using(spy)
        defer { base.remove() }
        try await base.withServer(on: store) { server in try await server.withRouter { client in
            let (call, loss) = lost
            let sam = try await server.register(client)
            let card = try #require(try await server.addCard(client, token: sam.token).json["id"] as? String)
            spy.leaveUnanswered(call, loss)
            let lost = try await server.topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(lost.status == .serviceUnavailable && lost.problemType == "urn:skiff:problem:card-network-unavailable")
            #expect(try await server.balance(client, sam.token) == 100_000)
            let retried = try await server.topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(retried.status == .created && retried.json["status"] as? String == "completed")
            let again = try await server.topUp(client, sam.token, card: card, 2_000, key: "t")
            #expect(again.status == .created && again.body == retried.body && again.headers[Self.replayed] == "true")
            #expect(try await server.balance(client, sam.token) == 102_000)
            #expect(try await server.topUpLines(client, sam.token).count == 1)
            // Every try at the one top-up reached the network with the same keys: one payment, confirmed once.
            #expect(Set(spy.payments).count == 1 && Set(spy.paymentKeys).count == 1)
            #expect(Set(spy.confirmKeys).count == 1)
            #expect(spy.confirmedAtNetwork == 1)
        } }
    }

    @Test("The simulated network's card that never answers (…0119): 503 each time, the top-up left pending, nothing credited")
    func neverAnswers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (sam, card) = try await server.userWithCard(client, cardNumber: "4000000000000119")
            for _ in 1...2 {
                let reply = try await server.topUp(client, sam.token, card: card, 100, key: "t2")
                #expect(reply.status == .serviceUnavailable && reply.problemType == "urn:skiff:problem:card-network-unavailable")
            }
            let stored = try #require(try await server.storedTopUp(userID: sam.userID, key: "t2"))
            #expect(stored.status == .pending && stored.paymentID != nil)
            // Read, it stays as it was: the network still does not answer.
            let read = try await client.send(.get, "/v1/topups/\(stored.id)", token: sam.token)
            #expect(read.status == .ok && read.json["status"] as? String == "pending")
            #expect(try await server.balance(client, sam.token) == 100_000)
        }
    }
}
