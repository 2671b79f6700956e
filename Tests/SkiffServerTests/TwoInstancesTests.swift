import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
@testable import SkiffServer

/// Sends requests to one running instance over a real socket, as a load balancer would.
struct InstanceClient: Sendable {
    let baseURL: URL

    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: [String: any Sendable]? = nil, token: String? = nil,
        idempotencyKey: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL.absoluteString + uri)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        var headers = HTTPFields()
        for (name, value) in response.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: HTTPResponse.Status(code: Int(response.status.code)), headers: headers, body: String(buffer: body))
    }

    /// POSTs `fields` form-encoded (the card network's routes).
    func sendForm(_ uri: String, _ fields: KeyValuePairs<String, String>) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL.absoluteString + uri)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormBody.encode(fields)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: HTTPResponse.Status(code: Int(response.status.code)), headers: [:], body: String(buffer: body))
    }

    /// The simulated card network's token for `number`, from this instance's tokens route.
    func cardToken(number: String) async throws -> String {
        let reply = try await sendForm(
            SimulatedCardNetwork.apiPath + "/v1/tokens", FormBody.card(key: SimulatedCardNetwork.publishableKey, number: number)
        )
        guard reply.status == .ok, let token = reply.json["id"] as? String else {
            throw TestFailure("tokenizing answered \(reply.status): \(reply.body)")
        }
        return token
    }
}

/// Two `SkiffServerInstance`s on one fresh PostgreSQL database with one server key, sharing a clock and a code sender.
struct TwoInstances {
    let server: TestServer
    let a: InstanceClient
    let b: InstanceClient

    /// Starts both at the same moment (so their migrations race), runs `body`, and stops them; without a
    /// PostgreSQL it fails or says it did not run, as `TestPostgres.withFreshDatabase` does.
    static func run(_ body: (TwoInstances) async throws -> Void) async throws {
        var server = try TestServer()
        defer { server.remove() }
        try await TestPostgres.withFreshDatabase { databaseURL in
            server.configuration.database = .postgres(url: databaseURL)
            server.configuration.fingerprintKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()
            // Each instance keeps its own per-address bucket; these tests count what the database shares.
            server.configuration.limits.authRequestBurst = 1_000
            let configuration = server.configuration
            async let startingA = SkiffServerInstance.start(configuration)
            async let startingB = SkiffServerInstance.start(configuration)
            let (instanceA, instanceB) = try await (startingA, startingB)
            let instances = TwoInstances(
                server: server, a: InstanceClient(baseURL: instanceA.baseURL), b: InstanceClient(baseURL: instanceB.baseURL)
            )
            do {
                try await body(instances)
            } catch {
                await instanceA.stop()
                await instanceB.stop()
                throw error
            }
            await instanceA.stop()
            await instanceB.stop()
        }
    }

    /// The instance for the `index`th of several requests: A and B in turn.
    func either(_ index: Int) -> InstanceClient { index.isMultiple(of: 2) ? a : b }

    /// Starts a registration for `number` (a +1 number) on A and returns its verification id and code.
    func startRegistration(number: String) async throws -> (verificationID: String, code: String) {
        let started = try await a.send(
            .post, "/v1/auth/register",
            json: ["countryCode": "+1", "phoneNumber": number, "fullName": "Sam Carter", "password": Seeds.password],
            idempotencyKey: UUID().uuidString
        )
        guard started.status == .accepted, let verificationID = started.json["verificationId"] as? String else {
            throw TestFailure("register answered \(started.status): \(started.body)")
        }
        return (verificationID, try server.lastCode(to: "+1" + number))
    }

    /// Registers `number` on A, verifies the code on B, and returns the session token B handed out.
    func register(number: String) async throws -> String {
        let (verificationID, code) = try await startRegistration(number: number)
        let verified = try await b.send(.post, "/v1/auth/register/verify", json: ["verificationId": verificationID, "code": code])
        guard verified.status == .created, let token = verified.json["token"] as? String else {
            throw TestFailure("verify answered \(verified.status): \(verified.body)")
        }
        server.clock.advance(by: 31)
        return token
    }
}

@Suite("Two instances on one PostgreSQL database")
struct TwoInstancesTests {
    @Test("A session made on one instance works on the other; a logout on one is refused by the other at once, though it holds the session")
    func sessionsAndLogout() async throws {
        try await TwoInstances.run { servers in
            let token = try await servers.register(number: "2025550100")
            let onA = try await servers.a.send(.get, "/v1/me", token: token)
            let onB = try await servers.b.send(.get, "/v1/me", token: token)
            #expect(onA.status == .ok)
            #expect(onB.status == .ok)
            #expect(onB.body == onA.body)
            // B keeps the session it read (decision 0203) and serves this one from memory.
            #expect(try await servers.b.send(.get, "/v1/me", token: token).status == .ok)

            #expect(try await servers.a.send(.post, "/v1/auth/logout", token: token).status == .noContent)
            // B holds the session a moment ago; no time passes, and still its very next request is refused.
            #expect(try await servers.b.send(.get, "/v1/me", token: token).status == .unauthorized)
            #expect(try await servers.a.send(.get, "/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test("A lock made on one instance is answered session-locked by the other at once, and an unlock on it opens both")
    func lockAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            let token = try await servers.register(number: "2025550105")
            for _ in 0..<2 { #expect(try await servers.b.send(.get, "/v1/me", token: token).status == .ok) }
            #expect(try await servers.a.send(.post, "/v1/session/lock", token: token).status == .noContent)
            let locked = try await servers.b.send(.get, "/v1/me", token: token)
            #expect(locked.status.code == 423)
            #expect(locked.problemType == "urn:skiff:problem:session-locked")
            let unlock = try await servers.b.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: token)
            #expect(unlock.status == .noContent)
            #expect(try await servers.a.send(.get, "/v1/me", token: token).status == .ok)
        }
    }

    @Test("A password reset on one instance ends the sessions the other has just served")
    func resetAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            let token = try await servers.register(number: "2025550106")
            for _ in 0..<2 { #expect(try await servers.b.send(.get, "/v1/me", token: token).status == .ok) }
            let forgot = try await servers.a.send(
                .post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550106"]
            )
            let id = try #require(forgot.json["verificationId"] as? String)
            let code = try servers.server.lastCode(to: "+12025550106")
            let reset = try await servers.a.send(
                .post, "/v1/auth/password/reset",
                json: ["verificationId": id, "code": code, "newPassword": "a-new-harbour-2031"]
            )
            #expect(reset.status == .noContent)
            #expect(try await servers.b.send(.get, "/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test("Add-card with one Idempotency-Key sent to A, then B, answers the same card and stores one; a token A's network made is B's too")
    func idempotencyAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            let token = try await servers.register(number: "2025550101")
            let card: [String: any Sendable] = [
                "cardToken": try await servers.a.cardToken(number: Seeds.visa), "holderName": "Sam Carter",
            ]
            let first = try await servers.a.send(.post, "/v1/cards", json: card, token: token, idempotencyKey: "shared-key")
            let retry = try await servers.b.send(.post, "/v1/cards", json: card, token: token, idempotencyKey: "shared-key")
            #expect(first.status == .created)
            #expect(retry.status == .created)
            #expect(retry.body == first.body)
            #expect(retry.headers[.location] == first.headers[.location])
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let cards = try await servers.b.send(.get, "/v1/cards", token: token).array
            #expect(cards.filter { $0["last4"] as? String == "4242" }.count == 1)
            #expect(cards.count == 2)
        }
    }

    @Test("A top-up sent with one key to A and B at once, several times: one top-up, credited once, answered alike by both")
    func topUpAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            let token = try await servers.register(number: "2025550102")
            let added = try await servers.b.send(
                .post, "/v1/cards", json: ["cardToken": try await servers.a.cardToken(number: Seeds.mastercard), "holderName": "Sam Carter"],
                token: token, idempotencyKey: UUID().uuidString
            )
            #expect(added.status == .created)
            let cardID = try #require(added.json["id"] as? String)
            let body: [String: any Sendable] = ["cardId": cardID, "amountMinor": 2_500, "currency": "USD"]
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for index in 0..<6 {
                    group.addTask { try await servers.either(index).send(.post, "/v1/topups", json: body, token: token, idempotencyKey: "both") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .created && $0.json["status"] as? String == "completed" }, "\(replies.map(\.body))")
            #expect(Set(replies.compactMap { $0.json["id"] as? String }).count == 1)
            #expect(Set(replies.compactMap { $0.json["transferId"] as? String }).count == 1)
            let id = try #require(replies.first?.json["id"] as? String)
            let fromA = try await servers.a.send(.get, "/v1/topups/\(id)", token: token)
            let fromB = try await servers.b.send(.get, "/v1/topups/\(id)", token: token)
            #expect(fromA.status == .ok && fromA.body == fromB.body)
            let me = try await servers.a.send(.get, "/v1/me", token: token)
            #expect((me.json["balance"] as? [String: Any])?["amountMinor"] as? Int == 102_500)
        }
    }

    @Test("Transfers both ways split over both instances, each sent twice with its key to A and B at once: each made once, balances sum unchanged")
    func transfersAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            let alex = try await servers.register(number: "2025550107")
            let jordan = try await servers.register(number: "2025550108")
            func id(_ token: String) async throws -> String {
                let me = try await servers.a.send(.get, "/v1/me", token: token)
                return try #require((me.json["user"] as? [String: Any])?["id"] as? String)
            }
            let (alexID, jordanID) = (try await id(alex), try await id(jordan))
            let replies = try await withThrowingTaskGroup(of: (Int, Reply).self) { group in
                for index in 0..<40 {
                    let (token, to) = index.isMultiple(of: 2) ? (alex, jordanID) : (jordan, alexID)
                    let body: [String: any Sendable] = ["recipientId": to, "amountMinor": 100 + index, "currency": "USD"]
                    for client in [servers.a, servers.b] {
                        group.addTask {
                            (index, try await client.send(.post, "/v1/transfers", json: body, token: token, idempotencyKey: "k-\(index)"))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.1.status == .created })
            let byIndex = Dictionary(grouping: replies, by: \.0)
            for (index, pair) in byIndex {
                #expect(Set(pair.map { $0.1.json["id"] as? String }).count == 1, "transfer \(index) was made twice")
                #expect(pair.filter { $0.1.headers[HTTPField.Name("Idempotent-Replayed")!] == "true" }.count == 1)
            }
            func balance(_ token: String) async throws -> Int {
                let me = try await servers.b.send(.get, "/v1/me", token: token)
                return try #require((me.json["balance"] as? [String: Any])?["amountMinor"] as? Int)
            }
            let sent = (0..<40).filter { $0.isMultiple(of: 2) }.map { 100 + $0 }.reduce(0, +)
            let received = (0..<40).filter { !$0.isMultiple(of: 2) }.map { 100 + $0 }.reduce(0, +)
            #expect(try await balance(alex) == 100_000 - sent + received)
            #expect(try await balance(jordan) == 100_000 + sent - received)
        }
    }

    @Test("40 parallel wrong codes split over both instances are counted 5, not more")
    func parallelWrongCodes() async throws {
        try await TwoInstances.run { servers in
            let (id, code) = try await servers.startRegistration(number: "2025550102")
            let guesses = (0..<40).map { String(format: "%06d", $0 * 1_000 + 7) }.filter { $0 != code }
            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                for (index, guess) in guesses.enumerated() {
                    group.addTask {
                        try await servers.either(index)
                            .send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": guess]).problemType
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "urn:skiff:problem:invalid-code" }.count == 4)
            #expect(outcomes.allSatisfy { $0 == "urn:skiff:problem:invalid-code" || $0 == "urn:skiff:problem:code-expired" })
            let right = try await servers.b.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code])
            #expect(right.problemType == "urn:skiff:problem:code-expired")
        }
    }

    @Test("The login throttle holds across both instances")
    func throttleAcrossInstances() async throws {
        try await TwoInstances.run { servers in
            _ = try await servers.register(number: "2025550103")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await servers.either(index).send(
                            .post, "/v1/auth/login",
                            json: ["countryCode": "+1", "phoneNumber": "2025550103", "password": "guess number \(index)"]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15)
            let right: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550103", "password": Seeds.password]
            #expect(try await servers.a.send(.post, "/v1/auth/login", json: right).status == .tooManyRequests)
            #expect(try await servers.b.send(.post, "/v1/auth/login", json: right).status == .tooManyRequests)
        }
    }

    @Test("The database password never reaches the log, at trace level, through a whole walk")
    func passwordNeverLogged() async throws {
        var server = try TestServer()
        defer { server.remove() }
        try await TestPostgres.withFreshDatabase { databaseURL in
            // The URL's password, else PGPASSWORD's; a server that trusts local connections ignores an added one.
            var components = try #require(URLComponents(string: databaseURL))
            let password = components.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
                ?? "never-logged-\(UUID().uuidString)"
            components.password = password
            server.configuration.database = .postgres(url: try #require(components.string))
            server.configuration.fingerprintKey = Data(repeating: 9, count: 32).base64EncodedString()
            let instance = try await SkiffServerInstance.start(server.configuration)
            do {
                try await walk(InstanceClient(baseURL: instance.baseURL), server: server)
            } catch {
                await instance.stop()
                throw error
            }
            await instance.stop()
            let log = server.logText
            #expect(log.contains("opening PostgreSQL"))
            #expect(!log.contains(password))
        }
    }

    /// Registration, a page of transactions, a wrong password and a logout on `client`.
    private func walk(_ client: InstanceClient, server: TestServer) async throws {
        let started = try await client.send(
            .post, "/v1/auth/register",
            json: ["countryCode": "+1", "phoneNumber": "2025550104", "fullName": "Sam", "password": Seeds.password],
            idempotencyKey: "walk"
        )
        let id = try #require(started.json["verificationId"] as? String)
        let code = try server.lastCode(to: "+12025550104")
        let verified = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": id, "code": code])
        let token = try #require(verified.json["token"] as? String)
        #expect(try await client.send(.get, "/v1/transactions?limit=5", token: token).status == .ok)
        let wrong: [String: any Sendable] = ["countryCode": "+1", "phoneNumber": "2025550104", "password": "wrong one"]
        #expect(try await client.send(.post, "/v1/auth/login", json: wrong).status == .unauthorized)
        #expect(try await client.send(.post, "/v1/auth/logout", token: token).status == .noContent)
    }
}
