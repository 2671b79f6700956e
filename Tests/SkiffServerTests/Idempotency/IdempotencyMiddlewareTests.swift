import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import SkiffAPI
import Testing
@testable import SkiffServer

@Suite("Idempotency", .timeLimit(.minutes(3)))
struct IdempotencyMiddlewareTests {
    @Test("The same key and body replay the first response; only one card exists")
    func replay() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let first = try await server.addCard(client, token: user.token, key: "card-key-1")
            let second = try await server.addCard(client, token: user.token, key: "card-key-1")
            #expect(first.status == .created)
            #expect(second.status == .created)
            #expect(second.body == first.body)
            #expect(second.headers[.location] == first.headers[.location])
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 2)
        }
    }

    @Test("The same key with another body answers 422")
    func mismatch() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await server.addCard(client, token: user.token, key: "k").status == .created)
            let other = try await server.addCard(client, token: user.token, number: Seeds.mastercard, key: "k")
            #expect(other.status == .unprocessableContent)
            #expect(other.problemType == "urn:skiff:problem:idempotency-key-reused")
        }
    }

    @Test("A retry while the first request runs answers 409")
    func inFlight() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let body: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
        try await server.withRouter { client in
            let (entered, open) = server.sender.hold()
            async let first = client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "slow")
            for await _ in entered { break }
            let second = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "slow")
            #expect(second.status == .conflict)
            #expect(second.problemType == "urn:skiff:problem:idempotency-in-progress")
            open()
            #expect(try await first.status == .accepted)
            let third = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "slow")
            #expect(third.status == .accepted)
            #expect(third.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(server.sender.messages.count == 1)
        }
    }

    @Test("A reservation left by a server that stopped mid-request is released after 5 minutes")
    func abandonedReservation() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let body: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
        let bodyData = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        try await server.withRouter { client in
            let components = try await SkiffServerComponents(server.configuration)
            let requestHash = IdempotencyFingerprint.hash(
                method: "POST", path: "/v1/auth/register", body: [UInt8](bodyData), key: components.key
            )
            let now = server.clock.now()
            let reserved = try await components.repositories.idempotency.begin(
                scope: "anonymous", key: "crashed", requestHash: requestHash, at: now,
                expiredBefore: now.addingTimeInterval(-86_400), abandonedBefore: now.addingTimeInterval(-300)
            )
            #expect(reserved == .started)
            #expect(try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "crashed").status == .conflict)
            server.clock.advance(by: 301)
            #expect(try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "crashed").status == .accepted)
        }
    }

    @Test("Keys are scoped to the caller")
    func scopedToCaller() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let first = try await server.register(client, number: "202 555 0100")
            let second = try await server.register(client, number: "202 555 0101")
            let a = try await server.addCard(client, token: first.token, key: "shared")
            // Another card: one card sits on one account at most.
            let b = try await server.addCard(client, token: second.token, number: Seeds.mastercard, key: "shared")
            #expect(a.status == .created)
            #expect(b.status == .created)
            #expect(a.json["id"] as? String != b.json["id"] as? String)
            #expect(b.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }

    @Test("Keys are kept 24 hours")
    func retention() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await server.addCard(client, token: user.token, key: "day").status == .created)
            server.clock.advance(by: 24 * 3_600 - 60)
            let late = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            let token = try #require(late.json["token"] as? String)
            let replayed = try await server.addCard(client, token: token, key: "day")
            #expect(replayed.status == .created)
            #expect(replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            server.clock.advance(by: 61)
            // Past 24 h the key is new again: the card is processed afresh and refused as a duplicate.
            let expired = try await server.addCard(client, token: token, key: "day")
            #expect(expired.status == .conflict)
            #expect(expired.problemType == "urn:skiff:problem:duplicate-card")
        }
    }

    @Test("A failed request frees its key for a corrected retry")
    func failedRequestNotKept() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let invalid = try await server.addCard(client, token: user.token, cardToken: "card_not_a_token", key: "fix")
            #expect(invalid.status == .badRequest)
            let declined = try await server.addCard(client, token: user.token, number: "4000000000000002", key: "fix")
            #expect(declined.status.code == 402)
            #expect(try await server.addCard(client, token: user.token, key: "fix").status == .created)
        }
    }

    @Test("The same token written another way, or tokenized again with another CVC, is the same request: the first answer is replayed")
    func sameTokenSameRequest() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let first = try await server.addCard(client, token: user.token, number: Seeds.amex, cvc: "7391", key: "same")
            #expect(first.status == .created)
            let cardToken = try await server.cardToken(client, number: Seeds.amex, cvc: "7391")
            let spaced = try await client.send(
                .post, "/v1/cards", token: user.token, idempotencyKey: "same",
                rawBody: "{ \"holderName\" : \"Sam Carter\",   \"cardToken\": \"" + cardToken + "\" }"
            )
            // The simulated network's token names the card, not the code typed with it.
            let otherCVC = try await server.addCard(client, token: user.token, number: "3782 822463 10005", cvc: "2468", key: "same")
            for replay in [spaced, otherCVC] {
                #expect(replay.status == .created)
                #expect(replay.body == first.body)
                #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
            let otherNumber = try await server.addCard(client, token: user.token, number: Seeds.discover, cvc: "739", key: "same")
            #expect(otherNumber.status == .unprocessableContent)
            #expect(otherNumber.problemType == "urn:skiff:problem:idempotency-key-reused")
            #expect(try await client.send(.get, "/v1/cards", token: user.token).array.count == 2)
        }
    }

    @Test("Another password under the same key replays the registration; the password is not part of the hash")
    func passwordLeftOut() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let body: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
        let otherPassword = body.merging(["password": "another long passphrase"]) { $1 }
        let otherName = body.merging(["fullName": "Samantha"]) { $1 }
        try await server.withRouter { client in
            #expect(try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "r").status == .accepted)
            let replay = try await client.send(.post, "/v1/auth/register", json: otherPassword, idempotencyKey: "r")
            #expect(replay.status == .accepted)
            #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let mismatch = try await client.send(.post, "/v1/auth/register", json: otherName, idempotencyKey: "r")
            #expect(mismatch.status == .unprocessableContent)
            #expect(server.sender.messages.count == 1)
        }
    }

    @Test("The kept rows hold no card number, no CVC and not the card's token: the request only as its keyed hash")
    func nothingSecretKept() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let cvc = "7391"
        let (rawBody, cardToken) = try await server.withRouter { client in
            let user = try await server.register(client)
            let cardToken = try await server.cardToken(client, number: Seeds.amex, cvc: cvc)
            let body: [String: any Sendable] = ["cardToken": cardToken, "holderName": "Sam Carter"]
            let added = try await client.send(.post, "/v1/cards", json: body, token: user.token, idempotencyKey: "kept")
            #expect(added.status == .created)
            return (try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), cardToken)
        }
        let key = try await SkiffServerComponents(server.configuration).key
        let rows = try DatabasePool(path: server.databasePath).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM idempotency_keys")
        }
        #expect(rows.count == 2)
        let requestHash = IdempotencyFingerprint.hash(method: "POST", path: "/v1/cards", body: Array(rawBody), key: key)
        #expect(rows.contains { ($0["request_hash"] as String?) == requestHash })
        let macsOfCVC = ["idempotency", "card-number", "cvc", "one-time-code"].map { key.mac($0, cvc) } + [SessionToken.hash(cvc)]
        for row in rows {
            for column in row.columnNames {
                let text = switch (row[column] as DatabaseValue).storage {
                case .blob(let data): String(decoding: data, as: UTF8.self)
                case .string(let string): string
                default: "\(row[column] as DatabaseValue)"
                }
                #expect(!text.contains(Seeds.amex) && !text.contains("3782 822463 10005"), "\(column)")
                #expect(!text.contains(cardToken) && !text.contains(String(cardToken.dropFirst(8).prefix(24))), "\(column)")
                #expect(!text.contains("cvc") && !text.contains("\"" + cvc + "\""), "\(column): \(text)")
                for mac in macsOfCVC {
                    #expect(!text.contains(mac), "\(column)")
                }
            }
        }
    }

    @Test("Every operation whose contract takes an Idempotency-Key has it checked by the middleware; a required one must send it")
    func contractMarksIdempotency() async throws {
        let marked = SkiffContract.operations.filter { $0.idempotencyKey != nil }
        #expect(Set(marked.map(\.id)) == ["register", "addCard", "verifyRegistration", "resetPassword", "sendTransfer", "createTopUp"])
        let refusal: Problem
        do {
            _ = try IdempotencyMiddleware.validated("a b")
            Issue.record("a key with a space was taken")
            return
        } catch let problem as Problem {
            refusal = problem
        }
        let message = try #require(refusal.errors.first?.message)
        #expect(message == "Send a unique Idempotency-Key header (such as a UUID) of 1 to 255 visible ASCII characters.")
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            for operation in marked {
                let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
                let path = operation.path.replacingOccurrences(of: "{id}", with: "x")
                // A key the contract's pattern refuses: only the middleware checks the pattern.
                let badKey = try await client.send(method, path, json: [:], token: user.token, idempotencyKey: "a b")
                #expect(badKey.status == .badRequest, "\(operation.id)")
                #expect(badKey.errorMessages == ["Idempotency-Key": message], "\(operation.id)")
                guard operation.idempotencyKey == .required else { continue }
                let noKey = try await client.send(method, path, json: [:], token: user.token)
                #expect(noKey.errorMessages == ["Idempotency-Key": message], "\(operation.id)")
            }
        }
    }

    @Test("The contract's strategy table covers every operation with an Idempotency-Key header parameter and nothing else")
    func strategyTableFromTheContract() {
        let withHeader = SkiffContract.operations.filter { $0.idempotencyKey != nil }
        let table = SkiffContract.idempotencyStrategies
        #expect(Set(table.keys) == Set(withHeader.map(\.id)))
        #expect(table == [
            "register": .storedAnswer, "addCard": .storedAnswer,
            "sendTransfer": .ledger, "createTopUp": .ledger,
            "verifyRegistration": .codeReplay, "resetPassword": .codeReplay,
        ])
        // The header is required exactly where the strategy needs a key.
        for operation in withHeader {
            #expect((operation.idempotencyKey == .required) == table[operation.id]?.keyRequired, "\(operation.id)")
        }
        // Every `x-skiff-idempotency` line names a strategy the reader knows (an unknown one would leave the table),
        // and the flags it replaced are gone.
        let lines = SkiffContract.document.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("x-skiff-idempotency:") }.count == table.count)
        #expect(!SkiffContract.document.contains("x-skiff-idempotency-in-ledger"))
        #expect(IdempotencyMiddleware.strategies == table)
    }

    @Test("The key is checked against the contract's schema for the header, as read from openapi.yaml")
    func keyPatternFromTheContract() throws {
        let facets = SkiffContract.idempotencyKeyFacets
        #expect(IdempotencyMiddleware.keyFacets == facets)
        // Every operation's header parameter (`IdempotencyKey`, `CodeReplayKey`) gives the same schema, the one read.
        for operation in SkiffContract.operations where operation.idempotencyKey != nil {
            #expect(operation.idempotencyKeyFacets == facets, "\(operation.id)")
        }
        let pattern = try #require(facets.pattern)
        let maximum = try #require(facets.maxLength)
        let schemaLines = SkiffContract.document.split(whereSeparator: \.isNewline)
            .filter { $0.contains("pattern: '\(pattern)'") && $0.contains("maxLength: \(maximum)") }
        #expect(schemaLines.count == 2, "the schema of both header parameters")
        // The middleware takes what the contract's pattern and lengths take, and nothing else.
        let expression = try NSRegularExpression(pattern: pattern)
        let samples = [
            "a", "k-1", UUID().uuidString, "~!\"#", String(repeating: "k", count: maximum),
            "", "a b", "a\tb", "é", "a\u{7F}", String(repeating: "k", count: maximum + 1),
        ]
        for sample in samples {
            let whole = NSRange(sample.startIndex..., in: sample)
            let length = sample.unicodeScalars.count
            let fits = length >= (facets.minLength ?? 0) && length <= maximum
                && expression.firstMatch(in: sample, range: whole)?.range == whole
            #expect(((try? IdempotencyMiddleware.validated(sample)) != nil) == fits, "\(sample.debugDescription)")
        }
        // The check follows the facets it is given: another pattern, another answer.
        #expect(ContractStrings.problem("abc", StringFacets(pattern: "^[a-z]+$")) == nil)
        #expect(ContractStrings.problem("ABC", StringFacets(pattern: "^[a-z]+$")) != nil)
    }
}
