import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Card routes")
struct CardRoutesTests {
    @Test("Adding a card answers 201 with a Location; the list shows it after the issued card")
    func addCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await server.addCard(client, token: user.token)
            #expect(reply.status == .created)
            let id = try #require(reply.json["id"] as? String)
            #expect(reply.headers[.location] == "/v1/cards/\(id)")
            #expect(reply.json["brand"] as? String == "visa")
            #expect(reply.json["last4"] as? String == "4242")
            #expect(reply.json["kind"] as? String == "external")
            #expect(reply.json["status"] as? String == "active")
            #expect(reply.json["expiryMonth"] as? Int == 12)
            #expect(reply.json["expiryYear"] as? Int == 2031)
            #expect(reply.json["holderName"] as? String == "Sam Carter")
            #expect(!reply.body.contains(Seeds.visa))
            let list = try await client.send(.get, "/v1/cards", token: user.token)
            #expect(list.array.map { $0["kind"] as? String } == ["issued", "external"])
        }
    }

    @Test("The brand comes from the number, as the network read it", arguments: [
        (Seeds.visa, "123", "visa"), (Seeds.mastercard, "123", "mastercard"), (Seeds.amex, "1234", "amex"),
        (Seeds.discover, "123", "discover"), ("2223003122003222", "123", "mastercard"),
    ])
    func brands(number: String, cvc: String, brand: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await server.addCard(client, token: user.token, number: number, cvc: cvc)
            #expect(reply.status == .created)
            #expect(reply.json["brand"] as? String == brand)
            #expect(reply.json["last4"] as? String == String(number.suffix(4)))
        }
    }

    @Test("An invalid body is listed by field: 400 where the contract's schema or the token's form refuses it, and nothing is added", arguments: [
        (["cardToken": ""], ["cardToken"]),
        (["cardToken": "tok_" + String(repeating: "a", count: 197)], ["cardToken"]),
        (["cardToken": "card_sim_123"], ["cardToken"]),
        (["cardToken": "4242424242424242"], ["cardToken"]),
        (["holderName": "   "], ["holderName"]),
        (["holderName": "Sam\u{7}Carter"], ["holderName"]),
        (["holderName": String(repeating: "e\u{301}", count: 51)], ["holderName"]),
        (["cardToken": "", "holderName": ""], ["cardToken", "holderName"]),
    ] as [([String: any Sendable], [String])])
    func addCardValidation(overrides: [String: any Sendable], fields: [String]) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            var body: [String: any Sendable] = ["cardToken": try await server.cardToken(client, number: Seeds.visa), "holderName": "Sam Carter"]
            body.merge(overrides) { $1 }
            let reply = try await client.send(.post, "/v1/cards", json: body, token: user.token, idempotencyKey: UUID().uuidString)
            #expect(reply.status == .badRequest)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.errorFields == fields)
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
        }
    }

    @Test("A card's number, expiry or security code sent to Skiff's API is refused (400) and never kept: only a token is taken")
    func numberRefused() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let old = try await client.send(
                .post, "/v1/cards",
                json: ["number": Seeds.visa, "expiryMonth": 12, "expiryYear": 2031, "cvc": "123", "holderName": "Sam Carter"],
                token: user.token, idempotencyKey: UUID().uuidString
            )
            #expect(old.status == .badRequest && old.contentType == "application/problem+json")
            #expect(!old.body.contains(Seeds.visa))
            let withToken = try await client.send(
                .post, "/v1/cards",
                json: ["cardToken": try await server.cardToken(client, number: Seeds.visa), "number": Seeds.visa, "holderName": "Sam Carter"],
                token: user.token, idempotencyKey: UUID().uuidString
            )
            #expect(withToken.status == .badRequest)
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
        }
        #expect(!server.logText.contains(Seeds.visa))
    }

    @Test("A refused field says what SkiffCore's rule says, the sentence the app shows under that field")
    func addCardMessages() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(
                .post, "/v1/cards", json: ["cardToken": "pm_123", "holderName": "Sam Carter"], token: user.token,
                idempotencyKey: UUID().uuidString
            )
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessages == ["cardToken": "Send the token the card network gave for the card (tok_…), not the card."])
            let name = try await client.send(
                .post, "/v1/cards", json: ["cardToken": try await server.cardToken(client, number: Seeds.visa), "holderName": "  "],
                token: user.token, idempotencyKey: UUID().uuidString
            )
            #expect(name.status == .badRequest)
            #expect(name.errorMessages == ["holderName": CardHolderName.Problem.name(.empty).message])
            // A card number typed in the name field: a rule in words (422), nothing added, the number in no answer.
            let digits = try await client.send(
                .post, "/v1/cards", json: ["cardToken": try await server.cardToken(client, number: Seeds.visa), "holderName": Seeds.visa],
                token: user.token, idempotencyKey: UUID().uuidString
            )
            #expect(digits.status == .unprocessableContent)
            #expect(digits.errorMessages == ["holderName": CardHolderName.Problem.digits.message])
            #expect(!digits.body.contains(Seeds.visa))
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1, "the issued card only")
            let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
            let last4 = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "12a", "verificationId": "x", "code": "123456"],
                token: user.token
            )
            #expect(last4.errorMessages == ["last4": CardLastFour.Problem.malformed.message])
        }
    }

    @Test("A token the network does not know (another server's, altered, made up) is refused on cardToken (422); nothing is added")
    func unknownToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let good = try await server.cardToken(client, number: Seeds.visa)
            let otherServer = try #require(SpyCardNetwork().token(number: Seeds.visa))
            for token in [otherServer, good + "x", "tok_made_up", "tok_sim_" + String(good.dropFirst(8).reversed())] {
                let reply = try await server.addCard(client, token: user.token, cardToken: token)
                #expect(reply.status == .unprocessableContent, "\(token)")
                #expect(reply.errorMessages == ["cardToken": "The card network does not know this card: type it again."])
            }
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
            #expect(try await server.addCard(client, token: user.token, cardToken: good).status == .created)
        }
    }

    @Test("A card the network declines when attached (…0002) answers 402 card-declined on cardToken; nothing is added")
    func declinedAtAttach() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await server.addCard(client, token: user.token, number: "4000000000000002")
            #expect(reply.status.code == 402)
            #expect(reply.problemType == "urn:skiff:problem:card-declined")
            #expect(reply.errorMessages == ["cardToken": CardDeclineReason.generic.message])
            #expect(reply.json["detail"] as? String == CardDeclineReason.generic.message)
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
            let notifications = try await client.send(.get, "/v1/notifications", token: user.token).array
            #expect(!notifications.contains { $0["title"] as? String == "Card added" })
        }
    }

    @Test("A card good through this month is added; one the network says has expired is refused (422 on cardToken)")
    func expiry() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            // The test clock is in September 2026; the machine's clock, which the token route reads, may be past it.
            let thisMonth = try server.mintedCardToken(number: Seeds.mastercard, expiryMonth: 9, expiryYear: 2026)
            let added = try await server.addCard(client, token: user.token, cardToken: thisMonth)
            #expect(added.status == .created)
            #expect(added.json["expiryMonth"] as? Int == 9 && added.json["expiryYear"] as? Int == 2026)
            let lastMonth = try server.mintedCardToken(number: Seeds.discover, expiryMonth: 8, expiryYear: 2026)
            let expired = try await server.addCard(client, token: user.token, cardToken: lastMonth)
            #expect(expired.status == .unprocessableContent)
            #expect(expired.errorMessages == ["cardToken": "This card has expired: add the new one."])
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 2)
        }
    }

    @Test("One account per card: the same number again on the account answers 409 duplicate-card; on another account 409 too, saying so; removed from the first it can be added to the second", arguments: TestStore.allCases)
    func oneAccountPerCard(store: TestStore) async throws {
        let base = try TestServer()
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let first = try await server.register(client, number: "202 555 0100")
                let second = try await server.register(client, number: "202 555 0101")
                let added = try await server.addCard(client, token: first.token)
                #expect(added.status == .created)
                let cardID = try #require(added.json["id"] as? String)

                // Another tokenization of the same number (another expiry, written with spaces) is the same card.
                let again = try await server.addCard(client, token: first.token, number: "4242 4242 4242 4242", expiryMonth: 1, expiryYear: 2030)
                #expect(again.status == .conflict && again.problemType == "urn:skiff:problem:duplicate-card")
                #expect(again.json["title"] as? String == "This card is already added.")
                #expect(again.json["detail"] as? String == "A card with this number is already on the account.")

                let elsewhere = try await server.addCard(client, token: second.token)
                #expect(elsewhere.status == .conflict && elsewhere.problemType == "urn:skiff:problem:duplicate-card")
                #expect(elsewhere.json["title"] as? String == "This card is on another account.")
                #expect(elsewhere.json["detail"] as? String == "A card can be on one Skiff account only. Remove it from the other account first.")
                #expect(try await client.send(.get, "/v1/cards", token: second.token).array.count == 1)

                // Another card is no trouble, on either account.
                #expect(try await server.addCard(client, token: second.token, number: Seeds.mastercard).status == .created)

                #expect(try await client.send(.delete, "/v1/cards/\(cardID)", token: first.token).status == .noContent)
                let moved = try await server.addCard(client, token: second.token)
                #expect(moved.status == .created)
                let back = try await server.addCard(client, token: first.token)
                #expect(back.status == .conflict && back.json["title"] as? String == "This card is on another account.")
                let secondCards = try await client.send(.get, "/v1/cards", token: second.token).array
                #expect(secondCards.filter { $0["kind"] as? String == "external" }.compactMap { $0["last4"] as? String }.sorted() == ["4242", "4444"])
                #expect(try await client.send(.get, "/v1/cards", token: first.token).array.count == 1)
            }
        }
    }

    @Test("The same card added by two accounts at once lands on one of them; the other is told 409", arguments: TestStore.allCases)
    func oneAccountPerCardAtOnce(store: TestStore) async throws {
        let base = try TestServer().allowingAuthBursts(of: 100)
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                var users: [Registered] = []
                for index in 0..<6 {
                    users.append(try await server.register(client, number: "202 555 01\(10 + index)"))
                }
                let cardToken = try await server.cardToken(client, number: Seeds.discover)
                let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                    for user in users {
                        group.addTask { UInt(try await server.addCard(client, token: user.token, cardToken: cardToken).status.code) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.sorted() == [201, 409, 409, 409, 409, 409])
                var holders = 0
                for user in users {
                    holders += try await client.send(.get, "/v1/cards", token: user.token).array.count - 1
                }
                #expect(holders == 1)
            }
        }
    }

    @Test("A network that does not answer when the card is attached: 503, nothing added; the same key then adds it once; each user has one customer at the network")
    func networkUnavailableAtAttach() async throws {
        let spy = SpyCardNetwork()
        let server = try TestServer().using(spy)
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            spy.leaveUnanswered(.attach, .after)
            let lost = try await server.addCard(client, token: user.token, key: "card-1")
            #expect(lost.status == .serviceUnavailable && lost.problemType == "urn:skiff:problem:card-network-unavailable")
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
            let retried = try await server.addCard(client, token: user.token, key: "card-1")
            #expect(retried.status == .created)
            #expect(try await server.addCard(client, token: user.token, number: Seeds.mastercard).status == .created)
            #expect(spy.count(.attach) == 3)
            #expect(spy.count(.makeCustomer) == 1)
            spy.leaveUnanswered(.makeCustomer, .before)
            let other = try await server.register(client, number: "202 555 0101")
            #expect(try await server.addCard(client, token: other.token, number: Seeds.amex, cvc: "1234").status == .serviceUnavailable)
            #expect(try await server.addCard(client, token: other.token, number: Seeds.amex, cvc: "1234").status == .created)
            #expect(spy.count(.makeCustomer) == 3)
        }
    }

    @Test("Adding a card needs an Idempotency-Key")
    func addCardNeedsKey() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(
                .post, "/v1/cards", json: ["cardToken": try await server.cardToken(client, number: Seeds.visa), "holderName": "Sam"],
                token: user.token
            )
            #expect(reply.status == .badRequest)
            #expect(reply.errorFields == ["Idempotency-Key"])
        }
    }

    @Test("Only external cards can be removed")
    func deleteCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let added = try await server.addCard(client, token: user.token)
            let id = try #require(added.json["id"] as? String)
            #expect(try await client.send(.delete, "/v1/cards/\(id)", token: user.token).status == .noContent)
            #expect(try await client.send(.delete, "/v1/cards/\(id)", token: user.token).status == .notFound)
            let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
            let refused = try await client.send(.delete, "/v1/cards/\(issued)", token: user.token)
            #expect(refused.status == .conflict)
            #expect(refused.problemType == "urn:skiff:problem:card-not-removable")
        }
    }

    @Test("Freezing and unfreezing answer the card; asking twice changes nothing; another user's card is 404")
    func freezeCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client, number: "202 555 0100")
            let intruder = try await server.register(client, number: "202 555 0101")
            let added = try await server.addCard(client, token: user.token)
            let id = try #require(added.json["id"] as? String)
            #expect(added.json["frozen"] as? Bool == false)
            for _ in 1...2 {
                let frozen = try await client.send(.put, "/v1/cards/\(id)/freeze", token: user.token)
                #expect(frozen.status == .ok)
                #expect(frozen.json["frozen"] as? Bool == true)
                #expect(frozen.json["status"] as? String == "active")
            }
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.map { $0["frozen"] as? Bool } == [false, true])
            #expect(try await client.send(.put, "/v1/cards/\(id)/freeze", token: intruder.token).status == .notFound)
            #expect(try await client.send(.delete, "/v1/cards/\(id)/freeze", token: intruder.token).status == .notFound)
            for _ in 1...2 {
                let unfrozen = try await client.send(.delete, "/v1/cards/\(id)/freeze", token: user.token)
                #expect(unfrozen.status == .ok)
                #expect(unfrozen.json["frozen"] as? Bool == false)
            }
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.map { $0["frozen"] as? Bool } == [false, false])
        }
    }

    @Test("A frozen issued card cannot be activated until it is unfrozen")
    func frozenCardNotActivated() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let (id, last4, verificationID, code) = try await server.startIssuedCardActivation(client, token: user.token)
            #expect(try await client.send(.put, "/v1/cards/\(id)/freeze", token: user.token).status == .ok)

            let refusedStart = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": last4], token: user.token)
            #expect(refusedStart.status == .conflict)
            #expect(refusedStart.problemType == "urn:skiff:problem:card-frozen")
            let refused = try await client.send(
                .post, "/v1/cards/\(id)/activate", json: ["last4": last4, "verificationId": verificationID, "code": code],
                token: user.token
            )
            #expect(refused.status == .conflict)
            #expect(refused.problemType == "urn:skiff:problem:card-frozen")

            #expect(try await client.send(.delete, "/v1/cards/\(id)/freeze", token: user.token).status == .ok)
            let activated = try await client.send(
                .post, "/v1/cards/\(id)/activate", json: ["last4": last4, "verificationId": verificationID, "code": code],
                token: user.token
            )
            #expect(activated.status == .ok)
            #expect(activated.json["status"] as? String == "active")
        }
    }

    @Test("Another user's card answers 404 everywhere")
    func otherUsersCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let owner = try await server.register(client, number: "202 555 0100")
            let intruder = try await server.register(client, number: "202 555 0101")
            let external = try #require(try await server.addCard(client, token: owner.token).json["id"] as? String)
            let issued = try #require(try await client.send(.get, "/v1/cards", token: owner.token).array.first?["id"] as? String)
            #expect(try await client.send(.delete, "/v1/cards/\(external)", token: intruder.token).status == .notFound)
            #expect(try await client.send(.post, "/v1/cards/\(issued)/activation", json: ["last4": "0000"], token: intruder.token).status == .notFound)
            let activate = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "0000", "verificationId": "x", "code": "123456"],
                token: intruder.token
            )
            #expect(activate.status == .notFound)
            #expect(try await client.send(.get, "/v1/cards", token: intruder.token).array.count == 1)
            #expect(try await client.send(.get, "/v1/cards", token: owner.token).array.count == 2)
        }
    }

    @Test("The issued card is activated with its last four digits and a code")
    func activateCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first)
            let id = try #require(issued["id"] as? String)
            let last4 = try #require(issued["last4"] as? String)
            let started = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": last4], token: user.token)
            #expect(started.status == .accepted)
            let verificationID = try #require(started.json["verificationId"] as? String)
            let message = try #require(server.sender.last)
            #expect(message.purpose == .cardActivation)
            #expect(message.to == user.phone)

            let wrongLast4 = last4 == "0000" ? "1111" : "0000"
            let refused = try await client.send(
                .post, "/v1/cards/\(id)/activate",
                json: ["last4": wrongLast4, "verificationId": verificationID, "code": message.code], token: user.token
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessages == ["last4": CardLastFour.Problem.mismatch.message])

            let activated = try await client.send(
                .post, "/v1/cards/\(id)/activate",
                json: ["last4": last4, "verificationId": verificationID, "code": message.code], token: user.token
            )
            #expect(activated.status == .ok)
            #expect(activated.json["status"] as? String == "active")
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.first?["status"] as? String == "active")

            server.clock.advance(by: 31)
            let again = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": last4], token: user.token)
            #expect(again.status == .conflict)
            #expect(again.problemType == "urn:skiff:problem:card-already-active")
        }
    }

    @Test("Wrong last four digits use up the code's tries")
    func activationAttemptsLimited() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let (id, last4, verificationID, code) = try await server.startIssuedCardActivation(client, token: user.token)
            for guess in ["0001", "0002", "0003", "0004", "0005"] where guess != last4 {
                _ = try await client.send(
                    .post, "/v1/cards/\(id)/activate", json: ["last4": guess, "verificationId": verificationID, "code": code],
                    token: user.token
                )
            }
            let right = try await client.send(
                .post, "/v1/cards/\(id)/activate", json: ["last4": last4, "verificationId": verificationID, "code": code],
                token: user.token
            )
            #expect(right.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("An external card needs no activation, and activation input is validated")
    func activationErrors() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let external = try #require(try await server.addCard(client, token: user.token).json["id"] as? String)
            #expect(try await client.send(.post, "/v1/cards/\(external)/activation", json: ["last4": "4242"], token: user.token).status == .conflict)
            let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
            let invalid = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "12", "verificationId": "x", "code": "12"], token: user.token
            )
            #expect(invalid.errorFields == ["last4", "code"])
            let unknownCode = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "1234", "verificationId": "x", "code": "123456"],
                token: user.token
            )
            #expect(unknownCode.problemType == "urn:skiff:problem:code-expired")
        }
    }
}
