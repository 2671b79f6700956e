import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Transfer routes")
struct TransferRoutesTests {
    /// Registers Alex (the sender) and Jordan, and looks Jordan up as Alex.
    private func twoUsers(
        _ server: TestServer, _ client: any TestClientProtocol
    ) async throws -> (alex: Registered, jordan: Registered, recipientID: String) {
        let alex = try await server.register(client, number: "202 555 0100", name: "Alex Rivera")
        let jordan = try await server.register(client, number: "202 555 0111", name: "Jordan Rowe Lee")
        let found = try await client.send(.get, "/v1/recipients?countryCode=%2B1&phoneNumber=202-555-0111", token: alex.token)
        #expect(found.status == .ok)
        #expect(found.json["displayName"] as? String == "Jordan L.")
        // The full name, for the sender's confirmation (issue 42).
        #expect(found.json["fullName"] as? String == "Jordan Rowe Lee")
        return (alex, jordan, try #require(found.json["recipientId"] as? String))
    }

    private func send(
        _ client: any TestClientProtocol, _ token: String, to recipient: String, _ amount: Int64, key: String,
        note: String? = nil, stepUp: String? = nil
    ) async throws -> Reply {
        var body: [String: any Sendable] = ["recipientId": recipient, "amountMinor": amount, "currency": "USD"]
        if let note { body["note"] = note }
        if let stepUp { body["stepUpToken"] = stepUp }
        return try await client.send(.post, "/v1/transfers", json: body, token: token, idempotencyKey: key)
    }

    @Test("A body naming a field twice answers 400 and does nothing: its key stays free for the body meant")
    func repeatedField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, _, recipient) = try await twoUsers(server, client)
            let twice = try await client.send(
                .post, "/v1/transfers", token: alex.token, idempotencyKey: "k-twice",
                rawBody: #"{"recipientId":"\#(recipient)","amountMinor":2,"amountMinor":3,"currency":"USD"}"#
            )
            #expect(twice.status == .badRequest && twice.errorFields == ["amountMinor"], "\(twice.body)")
            let once = try await send(client, alex.token, to: recipient, 3, key: "k-twice")
            #expect(once.status == .created && once.json["amountMinor"] as? Int == 3, "\(once.body)")
            #expect(once.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let me = try await client.send(.get, "/v1/me", token: alex.token)
            #expect((me.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 100_000 - 3)
        }
    }

    @Test("Alex sends Jordan $12.50: 201 with Location, both balances, both lists, Jordan's notification; a retry answers the same transfer")
    func sendOnce() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, jordan, recipient) = try await twoUsers(server, client)
            let sent = try await send(client, alex.token, to: recipient, 1_250, key: "k-1", note: " Lunch ")
            #expect(sent.status == .created)
            let id = try #require(sent.json["id"] as? String)
            #expect(sent.headers[.location] == "/v1/transfers/\(id)")
            #expect(sent.json["direction"] as? String == "sent" && sent.json["note"] as? String == "Lunch")
            #expect((sent.json["reference"] as? String)?.hasPrefix("SKF-") == true)
            #expect((sent.json["counterparty"] as? [String: Any])?["displayName"] as? String == "Jordan L.")
            let again = try await send(client, alex.token, to: recipient, 1_250, key: "k-1", note: " Lunch ")
            #expect(again.status == .created && again.body == sent.body)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(sent.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let other = try await send(client, alex.token, to: recipient, 1_251, key: "k-1")
            #expect(other.status == .unprocessableContent && other.problemType == "urn:skiff:problem:idempotency-key-reused")

            let alexMe = try await client.send(.get, "/v1/me", token: alex.token)
            #expect((alexMe.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 100_000 - 1_250)
            let jordanMe = try await client.send(.get, "/v1/me", token: jordan.token)
            #expect((jordanMe.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 100_000 + 1_250)
            let list = try await client.send(.get, "/v1/transactions?limit=1", token: jordan.token)
            let top = try #require((list.json["items"] as? [[String: Any]])?.first)
            #expect(top["amountMinor"] as? Int == 1_250 && top["merchant"] as? String == "Alex R." && top["transferId"] as? String == id)
            let notifications = try await client.send(.get, "/v1/notifications", token: jordan.token)
            #expect(notifications.array.first?["title"] as? String == "Received $12.50 from Alex R.")
            let seen = try await client.send(.get, "/v1/transfers/\(id)", token: jordan.token)
            #expect(seen.status == .ok && seen.json["direction"] as? String == "received")
            #expect((seen.json["counterparty"] as? [String: Any])?["displayName"] as? String == "Alex R.")
        }
    }

    @Test("A transfer's line is found on both sides by its note and by its reference, whole or in part, short queries too")
    func foundByNoteAndReference() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, jordan, recipient) = try await twoUsers(server, client)
            _ = try await send(client, alex.token, to: recipient, 300, key: "k-other", note: "Coffee")
            let sent = try await send(client, alex.token, to: recipient, 1_250, key: "k-1", note: "Pizza night")
            #expect(sent.status == .created)
            let id = try #require(sent.json["id"] as? String)
            let reference = try #require(sent.json["reference"] as? String)
            for token in [alex.token, jordan.token] {
                for query in ["pizza", "NIGHT", reference, reference.lowercased(), String(reference.dropFirst(4)), "zz"] {
                    let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                    let found = try await client.send(.get, "/v1/transactions?query=\(encoded)", token: token)
                    #expect(found.status == .ok)
                    let items = try #require(found.json["items"] as? [[String: Any]])
                    #expect(items.map { $0["transferId"] as? String } == [id], "\(query): \(found.body)")
                }
            }
        }
    }

    @Test("A stranger cannot read a transfer; an unknown one is 404")
    func strangers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, _, recipient) = try await twoUsers(server, client)
            let stranger = try await server.register(client, number: "202 555 0122")
            let id = try #require(try await send(client, alex.token, to: recipient, 100, key: "k").json["id"] as? String)
            #expect(try await client.send(.get, "/v1/transfers/\(id)", token: stranger.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/transfers/nothing-here", token: alex.token).status == .notFound)
        }
    }

    @Test("Refused with a problem, writing nothing: zero, over the balance, over the per-transfer and the day's limit, to yourself, a bad note, another currency")
    func refusals() async throws {
        var server = try TestServer()
        server.configuration.limits.dailyTransferLimitMinor = 15_000
        defer { server.remove() }
        try await server.withRouter { [server] client in
            let (alex, _, recipient) = try await twoUsers(server, client)
            let zero = try await send(client, alex.token, to: recipient, 0, key: "1")
            #expect(zero.status == .unprocessableContent && zero.errorFields == ["amountMinor"])
            let tooLong = try await send(client, alex.token, to: recipient, 100, key: "2", note: String(repeating: "é", count: 141))
            #expect(tooLong.status == .unprocessableContent && tooLong.errorFields == ["note"])
            let control = try await send(client, alex.token, to: recipient, 100, key: "3", note: "a\u{7}b")
            #expect(control.status == .unprocessableContent && control.errorFields == ["note"])
            let myself = try await send(client, alex.token, to: alex.userID, 100, key: "4")
            #expect(myself.status == .unprocessableContent && myself.errorFields == ["recipientId"])
            let ownNumber = try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550100", token: alex.token)
            #expect(ownNumber.status == .unprocessableContent && ownNumber.errorFields == ["phoneNumber"])
            let nobody = try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550133", token: alex.token)
            #expect(nobody.status == .notFound && nobody.errorFields == ["phoneNumber"])
            let perTransfer = try await send(client, alex.token, to: recipient, 200_001, key: "5")
            #expect(perTransfer.status == .unprocessableContent && perTransfer.problemType == "urn:skiff:problem:transfer-limit")
            let euros = try await client.send(
                .post, "/v1/transfers", json: ["recipientId": recipient, "amountMinor": 100, "currency": "EUR"],
                token: alex.token, idempotencyKey: "6"
            )
            #expect(euros.status == .unprocessableContent && euros.errorFields == ["currency"])
            #expect(try await send(client, alex.token, to: recipient, 10_000, key: "7").status == .created)
            let overDay = try await send(client, alex.token, to: recipient, 5_001, key: "8")
            #expect(overDay.status == .unprocessableContent && overDay.problemType == "urn:skiff:problem:transfer-limit")
            #expect(overDay.json["detail"] as? String == "Transfers are limited to $150.00 a day; $50.00 is left today.")
            // The refused key is free for a corrected request (past $100.00 today, with a proof for it).
            let proof = try await client.send(
                .post, "/v1/session/step-up", json: ["password": Seeds.password, "recipientId": recipient, "amountMinor": 5_000],
                token: alex.token
            )
            let stepUp = try #require(proof.json["stepUpToken"] as? String)
            #expect(try await send(client, alex.token, to: recipient, 5_000, key: "8", stepUp: stepUp).status == .created)
            let noKey = try await client.send(
                .post, "/v1/transfers", json: ["recipientId": recipient, "amountMinor": 100, "currency": "USD"], token: alex.token
            )
            #expect(noKey.status == .badRequest)
            let me = try await client.send(.get, "/v1/me", token: alex.token)
            #expect((me.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 100_000 - 15_000)
        }
    }

    @Test("Over the balance answers insufficient-funds")
    func insufficientFunds() async throws {
        var server = try TestServer()
        server.configuration.limits.openingBalanceMinor = 5_000
        defer { server.remove() }
        try await server.withRouter { [server] client in
            let (alex, _, recipient) = try await twoUsers(server, client)
            let reply = try await send(client, alex.token, to: recipient, 5_001, key: "1")
            #expect(reply.status == .unprocessableContent && reply.problemType == "urn:skiff:problem:insufficient-funds")
            #expect(try await send(client, alex.token, to: recipient, 5_000, key: "2").status == .created)
        }
    }

    @Test("Above $100.00 a transfer needs a fresh step-up of this session for it, good once; a wrong password is counted on the user's own throttle")
    func stepUp() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, jordan, recipient) = try await twoUsers(server, client)
            /// `POST /v1/session/step-up` for a transfer of `amount` to `payee`.
            func stepUp(_ token: String, _ password: String, to payee: String = recipient, _ amount: Int64) async throws -> Reply {
                try await client.send(
                    .post, "/v1/session/step-up", json: ["password": password, "recipientId": payee, "amountMinor": amount], token: token
                )
            }
            #expect(try await send(client, alex.token, to: recipient, TransferRules.stepUpAboveMinor, key: "at").status == .created)
            let above = TransferRules.stepUpAboveMinor + 1
            let bare = try await send(client, alex.token, to: recipient, above, key: "1")
            #expect(bare.status == .forbidden && bare.problemType == "urn:skiff:problem:step-up-required")
            let wrong = try await stepUp(alex.token, "not it at all", above)
            #expect(wrong.status == .unprocessableContent && wrong.errorFields == ["password"])
            let proof = try await stepUp(alex.token, Seeds.password, above)
            #expect(proof.status == .created)
            let token = try #require(proof.json["stepUpToken"] as? String)
            // Another user's session cannot use it.
            let jordanTry = try await client.send(
                .post, "/v1/transfers",
                json: ["recipientId": alex.userID, "amountMinor": above, "currency": "USD", "stepUpToken": token],
                token: jordan.token, idempotencyKey: "j"
            )
            #expect(jordanTry.status == .forbidden)
            let first = try await send(client, alex.token, to: recipient, above, key: "2", stepUp: token)
            #expect(first.status == .created)
            // The same request again is the same transfer, though its proof is used.
            let retry = try await send(client, alex.token, to: recipient, above, key: "2", stepUp: token)
            #expect(retry.status == .created && retry.body == first.body)
            let reuse = try await send(client, alex.token, to: recipient, above, key: "3", stepUp: token)
            #expect(reuse.status == .forbidden)
            let late = try await stepUp(alex.token, Seeds.password, above)
            let lateToken = try #require(late.json["stepUpToken"] as? String)
            // Past the proof's five minutes, in steps short of the session's idle lock.
            server.clock.advance(by: 150)
            #expect(try await client.send(.get, "/v1/me", token: alex.token).status == .ok)
            server.clock.advance(by: 151)
            #expect(try await send(client, alex.token, to: recipient, above, key: "4", stepUp: lateToken).status == .forbidden)
            for _ in 0..<5 { _ = try await stepUp(alex.token, "not it at all", above) }
            let paused = try await stepUp(alex.token, Seeds.password, above)
            #expect(paused.status == .tooManyRequests && paused.headers[.retryAfter] != nil)
            // Counted on the user's own throttle (docs/decisions/0201): the number's sign-in is not paused by it, and a
            // stranger's failed sign-ins on a number never pause its owner's step-up.
            let login = ["countryCode": "+1", "phoneNumber": "202 555 0100", "password": Seeds.password]
            #expect(try await client.send(.post, "/v1/auth/login", json: login).status == .ok)
            // Jordan's session went idle past its lock while the clock moved: a new one, then a stranger's guesses.
            var jordanLogin = ["countryCode": "+1", "phoneNumber": "202 555 0111", "password": Seeds.password]
            let jordanToken = try #require(try await client.send(.post, "/v1/auth/login", json: jordanLogin).json["token"] as? String)
            jordanLogin["password"] = "not it at all"
            for _ in 0..<5 { _ = try await client.send(.post, "/v1/auth/login", json: jordanLogin) }
            #expect(try await client.send(.post, "/v1/auth/login", json: jordanLogin).status == .tooManyRequests)
            let jordanStepUp = try await stepUp(jordanToken, Seeds.password, to: alex.userID, above)
            #expect(jordanStepUp.status == .created, "\(jordanStepUp.body)")
            #expect(try await client.send(.post, "/v1/session/lock", token: jordanToken).status == .noContent)
            #expect(try await client.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: jordanToken).status == .noContent)
        }
    }

    @Test("Lookups are limited to 30 an hour per user, with Retry-After; another user is not affected")
    func lookupLimit() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (alex, jordan, _) = try await twoUsers(server, client)
            for _ in 1..<30 {
                let reply = try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550111", token: alex.token)
                #expect(reply.status == .ok)
            }
            let limited = try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550111", token: alex.token)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "3600")
            #expect(try await client.send(.get, "/v1/recipients?countryCode=1&phoneNumber=2025550100", token: jordan.token).status == .ok)
        }
    }
}
