import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Auth routes")
struct AuthRoutesTests {
    @Test("Registration sends a code, and verifying it creates the account with a session")
    func registerAndVerify() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let started = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "1", "phoneNumber": "(202) 555-0100", "fullName": "  Sam Carter ", "password": Seeds.password],
                idempotencyKey: "reg-1"
            )
            #expect(started.status == .accepted)
            let verificationID = try #require(started.json["verificationId"] as? String)
            #expect(started.json["expiresAt"] is String)
            let message = try #require(server.sender.last)
            #expect(message.to == "+12025550100")
            #expect(message.purpose == .registration)
            #expect(message.code.count == 6 && message.code.allSatisfy(\.isNumber))

            let verified = try await client.send(
                .post, "/v1/auth/register/verify", json: ["verificationId": verificationID, "code": message.code]
            )
            #expect(verified.status == .created)
            let token = try #require(verified.json["token"] as? String)
            let user = try #require(verified.json["user"] as? [String: Any])
            #expect(user["fullName"] as? String == "Sam Carter")
            #expect(user["countryCode"] as? String == "+1")
            #expect(user["phoneNumber"] as? String == "2025550100")

            let me = try await client.send(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            let balance = try #require(me.json["balance"] as? [String: Any])
            #expect(balance["amountMinor"] as? Int == 100_000)
            #expect(balance["currency"] as? String == "USD")
            #expect(me.json["unreadNotifications"] as? Int == 1)

            let cards = try await client.send(.get, "/v1/cards", token: token)
            #expect(cards.array.count == 1)
            #expect(cards.array.first?["kind"] as? String == "issued")
            #expect(cards.array.first?["status"] as? String == "inactive")
            #expect(cards.array.first?["brand"] as? String == "visa")

            let transactions = try await client.send(.get, "/v1/transactions", token: token)
            let items = try #require(transactions.json["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["amountMinor"] as? Int == 100_000)
        }
    }

    @Test("Registration needs an Idempotency-Key")
    func registerNeedsIdempotencyKey() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
            )
            #expect(reply.status == .badRequest)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.errorFields == ["Idempotency-Key"])
            #expect(server.sender.messages.isEmpty)
        }
    }

    @Test("Registration lists every invalid field: 400 where the contract's schema refuses it, else 422", arguments: [
        (["countryCode": "+1", "phoneNumber": "555", "fullName": "Sam", "password": Seeds.password], ["phoneNumber"], 422),
        (["countryCode": "", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password], ["countryCode"], 400),
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "  ", "password": Seeds.password], ["fullName"], 400),
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam\u{0}", "password": Seeds.password], ["fullName"], 422), // NUL: the boundary answers first (JSONTextMiddleware)
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": String(repeating: "e\u{301}", count: 51), "password": Seeds.password], ["fullName"], 400),
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": "short"], ["password"], 400),
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": String(repeating: "x", count: 73)], ["password"], 400),
        (["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": "tab\there-and-long"], ["password"], 400),
        (["countryCode": "+1", "phoneNumber": "abc", "fullName": "", "password": "1234"], ["phoneNumber", "fullName", "password"], 400),
    ])
    func registerValidation(body: [String: String], fields: [String], status: Int) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: UUID().uuidString)
            #expect(reply.status.code == status)
            #expect(reply.problemType == "urn:skiff:problem:validation")
            #expect(reply.errorFields == fields)
            #expect(server.sender.messages.isEmpty)
        }
    }

    @Test("A password from the common-passwords list is refused, whatever its case", arguments: ["password", "Iloveyou", "sunshine", "12345678", "Password123", "qwertyuiop"])
    func commonPasswordRefused(password: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": password],
                idempotencyKey: UUID().uuidString
            )
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorFields == ["password"])
            #expect(reply.body.contains("too common"))
        }
    }

    @Test("A password of exactly 8 and of 72 characters is accepted")
    func passwordLengthBounds() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client, number: "202 555 0101", password: "qz8#Lm2!")
            _ = try await server.register(client, number: "202 555 0102", password: String(repeating: "qZ9!", count: 18))
        }
    }

    @Test("A wrong code counts a try; the fifth wrong try kills the code")
    func wrongCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "k")
            let wrong = code == "000000" ? "111111" : "000000"
            for attempt in 1...4 {
                let reply = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": wrong])
                #expect(reply.status == .unprocessableContent)
                #expect(reply.problemType == "urn:skiff:problem:invalid-code")
                #expect(reply.body.contains("\(5 - attempt) tr"))
            }
            let fifth = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": wrong])
            #expect(fifth.problemType == "urn:skiff:problem:code-expired")
            let right = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code])
            #expect(right.status == .unprocessableContent)
            #expect(right.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("Parallel guesses cannot pass the limit of 5 tries")
    func parallelGuesses() async throws {
        let server = try TestServer().allowingAuthBursts(of: 100)
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "k")
            let guesses = (0..<40).map { String(format: "%06d", $0 * 1_000 + 7) }.filter { $0 != code }
            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                for guess in guesses {
                    group.addTask {
                        try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": guess]).problemType
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "urn:skiff:problem:invalid-code" }.count == 4)
            let right = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code])
            #expect(right.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("A code is good for 10 minutes and only once")
    func codeLifetimeAndSingleUse() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let body: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
            let first = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "a")
            let firstID = try #require(first.json["verificationId"] as? String)
            let firstCode = try server.lastCode(to: "+12025550100")
            server.clock.advance(by: 600)
            let late = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": firstID, "code": firstCode])
            #expect(late.problemType == "urn:skiff:problem:code-expired")

            let second = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "b")
            let secondID = try #require(second.json["verificationId"] as? String)
            let secondCode = try server.lastCode(to: "+12025550100")
            server.clock.advance(by: 599)
            let inTime = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": secondID, "code": secondCode])
            #expect(inTime.status == .created)
            let again = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": secondID, "code": secondCode])
            #expect(again.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("A verification sent again with its Idempotency-Key (the answer was lost) signs in to the same account")
    func verificationReplay() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "reg")
            let body = ["verificationId": id, "code": code]
            let first = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(first.status == .created)
            let firstUser = try #require(first.json["user"] as? [String: Any])
            server.clock.advance(by: 3600)
            let again = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(again.status == .created)
            let againUser = try #require(again.json["user"] as? [String: Any])
            #expect(againUser["id"] as? String == firstUser["id"] as? String)
            let token = try #require(again.json["token"] as? String)
            #expect(token != first.json["token"] as? String)
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)
            let cards = try await client.send(.get, "/v1/cards", token: token)
            #expect(cards.array.count == 1)

            for refused in [
                try await client.send(.post, "/v1/auth/register/verify", json: body),
                try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-2"),
                try await client.send(
                    .post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code == "000000" ? "000001" : "000000"],
                    idempotencyKey: "verify-1"
                ),
            ] {
                #expect(refused.problemType == "urn:skiff:problem:code-expired")
            }
            server.clock.advance(by: 23 * 3600)
            let stale = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(stale.problemType == "urn:skiff:problem:code-expired")
            let badKey = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "no spaces")
            #expect(badKey.errorFields == ["Idempotency-Key"])
        }
    }

    @Test("A verification whose first try used the code but stopped before the account was made finishes it when sent again")
    func verificationReplayFinishesAccount() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "reg")
            // What a server killed between consuming the code and creating the account leaves behind.
            let consumedBy = try Self.replayHash(server, key: "verify-1", id: id, code: code)
            let database = try DatabaseQueue(path: server.databasePath)
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE verifications SET consumed_at = ?, consumed_by = ? WHERE id = ?",
                    arguments: [server.clock.now().millisecondsSince1970, consumedBy, id]
                )
            }
            let body = ["verificationId": id, "code": code]
            let withoutKey = try await client.send(.post, "/v1/auth/register/verify", json: body)
            #expect(withoutKey.problemType == "urn:skiff:problem:code-expired")
            let again = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(again.status == .created)
            let token = try #require(again.json["token"] as? String)
            let me = try await client.send(.get, "/v1/me", token: token)
            #expect((me.json["user"] as? [String: Any])?["fullName"] as? String == "Sam")
            #expect(try await client.send(.get, "/v1/cards", token: token).array.count == 1)
        }
    }

    /// What a server records of the request that consumed a code (`OneTimeCodeService.replayHash`).
    static func replayHash(_ server: TestServer, key: String, id: String, code: String, binding: String = "") throws -> String {
        OneTimeCodeService.replayHash(
            serverKey: try ServerKey.load(for: server.configuration), replayKey: key, verificationID: id, code: code,
            binding: binding
        )
    }

    @Test("Replay misses count as wrong tries on the code; once its tries are spent, not even the right request replays")
    func replayMissesAreCounted() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "reg")
            let body = ["verificationId": id, "code": code]
            let first = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(first.status == .created)
            let wrong = code == "000000" ? "000001" : "000000"
            for key in ["verify-1", "verify-2", "verify-3", "verify-4", "verify-5"] {
                let miss = try await client.send(
                    .post, "/v1/auth/register/verify", json: ["verificationId": id, "code": key == "verify-1" ? wrong : code],
                    idempotencyKey: key
                )
                #expect(miss.problemType == "urn:skiff:problem:code-expired")
            }
            let database = try DatabaseQueue(path: server.databasePath)
            let failures = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM code_failures WHERE phone = '+12025550100'")
            }
            #expect(failures == 5)
            let replay = try await client.send(.post, "/v1/auth/register/verify", json: body, idempotencyKey: "verify-1")
            #expect(replay.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("A password reset ends the replay of the registration and of earlier resets; no verification id is logged")
    func resetEndsReplays() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Sam", idempotencyKey: "reg")
            let registration = ["verificationId": id, "code": code]
            #expect(try await client.send(.post, "/v1/auth/register/verify", json: registration, idempotencyKey: "verify-1").status == .created)
            #expect(try await client.send(.post, "/v1/auth/register/verify", json: registration, idempotencyKey: "verify-1").status == .created)

            server.clock.advance(by: 31)
            let (resetID, resetCode) = try await server.startReset(client)
            let reset = ["verificationId": resetID, "code": resetCode, "newPassword": "a new long passphrase"]
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: reset, idempotencyKey: "reset-1").status == .noContent)
            let afterReset = try await client.send(.post, "/v1/auth/register/verify", json: registration, idempotencyKey: "verify-1")
            #expect(afterReset.problemType == "urn:skiff:problem:code-expired")
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: reset, idempotencyKey: "reset-1").status == .noContent)

            server.clock.advance(by: 31)
            let (laterID, laterCode) = try await server.startReset(client)
            let later = ["verificationId": laterID, "code": laterCode, "newPassword": "the third long passphrase"]
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: later, idempotencyKey: "reset-2").status == .noContent)
            let earlier = try await client.send(.post, "/v1/auth/password/reset", json: reset, idempotencyKey: "reset-1")
            #expect(earlier.problemType == "urn:skiff:problem:code-expired")
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "the third long passphrase"]
            )
            #expect(login.status == .ok)
            #expect(!server.logText.contains(resetID) && !server.logText.contains(laterID))
        }
    }

    @Test("A reset replay is answered from the first request's binding, never a password check: it finishes a reset cut short")
    func resetReplayFinishesReset() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let (id, code) = try await server.startReset(client)
            let newPassword = "a new long passphrase"
            // What a server killed between consuming the code and setting the password leaves behind.
            let serverKey = try ServerKey.load(for: server.configuration)
            let consumedBy = try Self.replayHash(
                server, key: "reset-1", id: id, code: code, binding: serverKey.mac("reset-password", newPassword)
            )
            let database = try DatabaseQueue(path: server.databasePath)
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE verifications SET consumed_at = ?, consumed_by = ? WHERE id = ?",
                    arguments: [server.clock.now().millisecondsSince1970, consumedBy, id]
                )
            }
            let body = ["verificationId": id, "code": code, "newPassword": newPassword]
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: body, idempotencyKey: "reset-1").status == .noContent)
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": newPassword]
            )
            #expect(login.status == .ok)
        }
    }

    @Test("At most one code per number every 30 seconds, with Retry-After")
    func codeResendInterval() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let body: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "fullName": "Sam", "password": Seeds.password]
            #expect(try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "a").status == .accepted)
            server.clock.advance(by: 10)
            let tooSoon = try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "b")
            #expect(tooSoon.status == .tooManyRequests)
            #expect(tooSoon.headers[.retryAfter] == "20")
            #expect(tooSoon.problemType == "urn:skiff:problem:code-rate-limited")
            #expect(server.sender.messages.count == 1)
            server.clock.advance(by: 20)
            #expect(try await client.send(.post, "/v1/auth/register", json: body, idempotencyKey: "c").status == .accepted)
            #expect(server.sender.messages.count == 2)
        }
    }

    @Test("Verifying a registration for a number that has an account answers 409")
    func registerExistingNumber() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let (id, code) = try await server.startRegistration(client, number: "2025550100", name: "Other", idempotencyKey: "again")
            let reply = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code])
            #expect(reply.status == .conflict)
            #expect(reply.problemType == "urn:skiff:problem:phone-registered")
        }
    }

    @Test("Login opens a session; an unknown number and a wrong password get the same answer")
    func loginAndNoEnumeration() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let ok = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202-555-0100", "password": Seeds.password]
            )
            #expect(ok.status == .ok)
            let token = try #require(ok.json["token"] as? String)
            #expect(Data(base64URLEncoded: token)?.count == 32)
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)

            let wrongPassword = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "not the password"]
            )
            let unknownNumber = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550199", "password": "not the password"]
            )
            #expect(wrongPassword.status == .unauthorized)
            #expect(wrongPassword.status == unknownNumber.status)
            #expect(wrongPassword.body == unknownNumber.body)
        }
    }

    @Test("Login lists invalid fields")
    func loginValidation() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "12", "password": ""])
            #expect(reply.status == .badRequest)
            #expect(reply.errorFields == ["phoneNumber", "password"])
        }
    }

    @Test("After 5 failures the number is paused with a growing Retry-After, up to 15 minutes")
    func loginThrottle() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let wrong: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "password": "wrong password"]
            for _ in 1...5 {
                #expect(try await client.send(.post, "/v1/auth/login", json: wrong).status == .unauthorized)
            }
            let paused = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            #expect(paused.status == .tooManyRequests)
            #expect(paused.headers[.retryAfter] == "30")
            var waits: [Int] = []
            for _ in 0..<7 {
                let current = Int(try await client.send(.post, "/v1/auth/login", json: wrong).headers[.retryAfter] ?? "") ?? 0
                server.clock.advance(by: TimeInterval(current))
                #expect(try await client.send(.post, "/v1/auth/login", json: wrong).status == .unauthorized)
                waits.append(Int(try await client.send(.post, "/v1/auth/login", json: wrong).headers[.retryAfter] ?? "") ?? 0)
            }
            #expect(waits == [60, 120, 240, 480, 900, 900, 900])
        }
    }

    @Test("A successful login resets the failure count")
    func loginSuccessResetsThrottle() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let wrong: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "password": "wrong password"]
            let right: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            for _ in 1...4 { _ = try await client.send(.post, "/v1/auth/login", json: wrong) }
            #expect(try await client.send(.post, "/v1/auth/login", json: right).status == .ok)
            for _ in 1...4 {
                #expect(try await client.send(.post, "/v1/auth/login", json: wrong).status == .unauthorized)
            }
            #expect(try await client.send(.post, "/v1/auth/login", json: right).status == .ok)
        }
    }

    @Test("Parallel password guesses are all counted")
    func parallelLoginGuesses() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await client.send(
                            .post, "/v1/auth/login",
                            json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "guess number \(index)"]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15)
        }
    }

    @Test("Unknown numbers are throttled like known ones")
    func unknownNumberThrottled() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let wrong: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550177", "password": "wrong password"]
            for _ in 1...5 { _ = try await client.send(.post, "/v1/auth/login", json: wrong) }
            #expect(try await client.send(.post, "/v1/auth/login", json: wrong).status == .tooManyRequests)
        }
    }

    @Test("Logout revokes the token; logout without one still answers 204")
    func logout() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            #expect(try await client.send(.post, "/v1/auth/logout", token: user.token).status == .noContent)
            let after = try await client.send(.get, "/v1/me", token: user.token)
            #expect(after.status == .unauthorized)
            #expect(after.headers[.wwwAuthenticate] == "Bearer")
            #expect(try await client.send(.post, "/v1/auth/logout").status == .noContent)
        }
    }

    @Test("A session ends after 30 idle minutes")
    func idleTimeout() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            server.clock.advance(by: 4 * 60)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
            server.clock.advance(by: 29 * 60)
            // Locked by the server after 5 minutes, not ended; a locked session's requests do not keep it alive.
            #expect(try await client.send(.get, "/v1/me", token: user.token).status.code == 423)
            server.clock.advance(by: 60)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .unauthorized)
        }
    }

    @Test("A session ends 12 hours after login however active")
    func absoluteLifetime() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let login = try await server.register(client)
            // A request every 4 minutes: never idle long enough for the server's 5-minute lock.
            for _ in 0..<(12 * 15 - 1) {
                server.clock.advance(by: 4 * 60)
                #expect(try await client.send(.get, "/v1/me", token: login.token).status == .ok)
            }
            server.clock.advance(by: 4 * 60)
            #expect(try await client.send(.get, "/v1/me", token: login.token).status == .unauthorized)
        }
    }

    @Test("Requests without a valid bearer token get 401 problems", arguments: [
        (HTTPRequest.Method.get, "/v1/me"), (.get, "/v1/transactions"), (.get, "/v1/notifications"), (.get, "/v1/cards"),
        (.post, "/v1/cards"), (.delete, "/v1/cards/x"), (.post, "/v1/cards/x/activation"), (.post, "/v1/cards/x/activate"),
        (.post, "/v1/notifications/x/read"),
    ])
    func bearerRequired(method: HTTPRequest.Method, path: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            for token in [nil, "not-a-token"] {
                let reply = try await client.send(method, path, token: token)
                #expect(reply.status == .unauthorized)
                #expect(reply.contentType == "application/problem+json")
                #expect(reply.problemType == "urn:skiff:problem:unauthorized")
            }
        }
    }

    @Test("Forgot password answers alike for unknown numbers and sends a code only to an account")
    func forgotPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let sentBefore = server.sender.messages.count
            let known = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550100"])
            let unknown = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550188"])
            #expect(known.status == .accepted)
            #expect(unknown.status == .accepted)
            #expect(Set(known.json.keys) == Set(unknown.json.keys))
            #expect(server.sender.messages.count == sentBefore + 1)
            #expect(server.sender.last?.purpose == .passwordReset)
            let invalid = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "1"])
            #expect(invalid.errorFields == ["phoneNumber"])
        }
    }

    @Test("Resetting the password revokes every session and changes the password")
    func resetPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let other = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            let otherToken = try #require(other.json["token"] as? String)
            let (id, code) = try await server.startReset(client)

            let common = try await client.send(
                .post, "/v1/auth/password/reset", json: ["verificationId": id, "code": code, "newPassword": "password1"]
            )
            #expect(common.errorFields == ["newPassword"])
            let reset = try await client.send(
                .post, "/v1/auth/password/reset", json: ["verificationId": id, "code": code, "newPassword": "a new long passphrase"]
            )
            #expect(reset.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/me", token: otherToken).status == .unauthorized)
            let oldLogin = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": Seeds.password]
            )
            #expect(oldLogin.status == .unauthorized)
            let newLogin = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "a new long passphrase"]
            )
            #expect(newLogin.status == .ok)
            let reused = try await client.send(
                .post, "/v1/auth/password/reset", json: ["verificationId": id, "code": code, "newPassword": "yet another passphrase"]
            )
            #expect(reused.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test(
        "A reset sent again with its Idempotency-Key succeeds for the password it set, and for no other; the key is taken as sent",
        arguments: ["reset-1", "a%20b", "100%", "%zz", "a+b"]
    )
    func resetReplay(key: String) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            _ = try await server.register(client)
            let (id, code) = try await server.startReset(client)
            let body = ["verificationId": id, "code": code, "newPassword": "a new long passphrase"]
            // A space is not allowed: what a percent-decoding of "a%20b" would give is refused, not the key as sent.
            let spaced = try await client.send(.post, "/v1/auth/password/reset", json: body, idempotencyKey: "a b")
            #expect(spaced.errorFields == ["Idempotency-Key"])
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: body, idempotencyKey: key).status == .noContent)
            #expect(try await client.send(.post, "/v1/auth/password/reset", json: body, idempotencyKey: key).status == .noContent)
            var other = body
            other["newPassword"] = "yet another passphrase"
            let otherPassword = try await client.send(.post, "/v1/auth/password/reset", json: other, idempotencyKey: key)
            #expect(otherPassword.problemType == "urn:skiff:problem:code-expired")
            let otherKey = try await client.send(.post, "/v1/auth/password/reset", json: body, idempotencyKey: "reset-2")
            #expect(otherKey.problemType == "urn:skiff:problem:code-expired")
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "a new long passphrase"]
            )
            #expect(login.status == .ok)
        }
    }

    @Test("A reset asked for an unknown number can never be completed")
    func resetUnknownNumber() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let forgot = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550188"])
            let id = try #require(forgot.json["verificationId"] as? String)
            let reply = try await client.send(
                .post, "/v1/auth/password/reset", json: ["verificationId": id, "code": "123456", "newPassword": "a new long passphrase"]
            )
            #expect(reply.status == .unprocessableContent)
            #expect(reply.problemType == "urn:skiff:problem:invalid-code")
        }
    }
}

