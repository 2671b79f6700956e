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

    @Test("The brand comes from the number", arguments: [
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

    @Test("Invalid card details are listed by field: 400 where the contract's schema refuses them, else 422", arguments: [
        (["number": "4242424242424241"], ["number"], 422),
        (["number": "42424242424"], ["number"], 400),
        (["number": "4242 4242 4242 4242 4242"], ["number"], 400),
        (["number": "4242-abcd"], ["number"], 400),
        (["expiryMonth": 13], ["expiryMonth"], 400),
        (["expiryMonth": 0], ["expiryMonth"], 400),
        (["expiryMonth": 8, "expiryYear": 2026], ["expiryYear"], 422),
        (["cvc": "12"], ["cvc"], 400),
        (["cvc": "1234"], ["cvc"], 422),
        (["number": Seeds.amex, "cvc": "123"], ["cvc"], 422),
        (["holderName": "   "], ["holderName"], 400),
        (["holderName": "Sam\u{7}Carter"], ["holderName"], 400),
        (["holderName": String(repeating: "e\u{301}", count: 51)], ["holderName"], 400),
        (["number": "1", "cvc": "x", "holderName": ""], ["number", "cvc", "holderName"], 400),
        (["number": "4242424242424241", "cvc": "x"], ["number", "cvc"], 400),
    ] as [([String: any Sendable], [String], Int)])
    func addCardValidation(overrides: [String: any Sendable], fields: [String], status: Int) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            var body: [String: any Sendable] = [
                "number": Seeds.visa, "expiryMonth": 12, "expiryYear": 2031, "cvc": "123", "holderName": "Sam Carter",
            ]
            body.merge(overrides) { $1 }
            let reply = try await client.send(.post, "/v1/cards", json: body, token: user.token, idempotencyKey: UUID().uuidString)
            #expect(reply.status.code == status)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.errorFields == fields)
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 1)
        }
    }

    @Test("A refused card field says what SkiffCore's rule says, the sentence the app shows under that field")
    func addCardMessages() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(
                .post, "/v1/cards",
                json: ["number": "3782 82", "expiryMonth": 12, "expiryYear": 31, "cvc": "12", "holderName": "  "],
                token: user.token, idempotencyKey: UUID().uuidString
            )
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessages == [
                "number": CardNumber.Problem.tooShort.message,
                "cvc": CardSecurityCode.Problem.wrongLength(expected: 4).message,
                "holderName": CardHolderName.Problem(.empty).message,
            ])
            let issued = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first?["id"] as? String)
            let last4 = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "12a", "verificationId": "x", "code": "123456"],
                token: user.token
            )
            #expect(last4.errorMessages == ["last4": CardLastFour.Problem.malformed.message])
        }
    }

    @Test("A two-digit year means 20YY, and the current month is not yet expired")
    func expiryForms() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            // The test clock is in September 2026.
            let reply = try await client.send(
                .post, "/v1/cards",
                json: ["number": Seeds.mastercard, "expiryMonth": 9, "expiryYear": 26, "cvc": "321", "holderName": "Sam"],
                token: user.token, idempotencyKey: "two-digit"
            )
            #expect(reply.status == .created)
            #expect(reply.json["expiryYear"] as? Int == 2026)
        }
    }

    @Test("The same number twice for one user answers 409; another user may add it")
    func duplicateCard() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let first = try await server.register(client, number: "202 555 0100")
            let second = try await server.register(client, number: "202 555 0101")
            #expect(try await server.addCard(client, token: first.token).status == .created)
            let again = try await server.addCard(client, token: first.token, number: "4242 4242 4242 4242")
            #expect(again.status == .conflict)
            #expect(again.problemType == "urn:skiff:problem:duplicate-card")
            #expect(try await server.addCard(client, token: second.token).status == .created)
        }
    }

    @Test("Adding a card needs an Idempotency-Key")
    func addCardNeedsKey() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let reply = try await client.send(
                .post, "/v1/cards",
                json: ["number": Seeds.visa, "expiryMonth": 12, "expiryYear": 2031, "cvc": "123", "holderName": "Sam"],
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
