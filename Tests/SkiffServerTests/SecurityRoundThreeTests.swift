import Foundation
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

/// Issue 45's security review, round three: what a stranger, a thief with an unlocked session or a greedy client could
/// do, each now refused.
@Suite("Security round three")
struct SecurityRoundThreeTests {
    /// A transfer of `amount` cents from `from` to `to`, with a proof when given.
    private func send(
        _ client: any TestClientProtocol, from: Registered, to: Registered, _ amount: Int, proof: String? = nil
    ) async throws -> Reply {
        var json: [String: any Sendable] = ["recipientId": to.userID, "amountMinor": amount, "currency": "USD"]
        if let proof { json["stepUpToken"] = proof }
        return try await client.send(.post, "/v1/transfers", json: json, token: from.token, idempotencyKey: UUID().uuidString)
    }

    private func stepUp(
        _ client: any TestClientProtocol, _ user: Registered, for payee: Registered, _ amount: Int, password: String = Seeds.password
    ) async throws -> Reply {
        try await client.send(
            .post, "/v1/session/step-up",
            json: ["password": password, "recipientId": payee.userID, "amountMinor": amount], token: user.token
        )
    }

    @Test("A stolen unlocked session cannot send the day's limit in pieces: past $100.00 a day each transfer needs a proof, bound to its payee and amount", arguments: TestStore.allCases)
    func stepUpForTheDay(store: TestStore) async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withServer(on: store) { server in
            try await server.withRouter { client in
                let alex = try await server.register(client, number: "202 555 0170", name: "Alex Reed")
                let bea = try await server.register(client, number: "202 555 0171", name: "Bea Lane")
                let sam = try await server.register(client, number: "202 555 0172", name: "Sam Carter")
                for _ in 0..<3 { #expect(try await send(client, from: alex, to: bea, 3_000).status == .created) }
                let fourth = try await send(client, from: alex, to: bea, 3_000)
                #expect(fourth.status == .forbidden && fourth.problemType == "urn:skiff:problem:step-up-required", "\(fourth.body)")
                // A proof names the transfer it was asked for: another amount or payee cannot use it.
                let proof = try #require(try await stepUp(client, alex, for: bea, 3_000).json["stepUpToken"] as? String)
                #expect(try await send(client, from: alex, to: bea, 3_500, proof: proof).status == .forbidden)
                #expect(try await send(client, from: alex, to: sam, 3_000, proof: proof).status == .forbidden)
                #expect(try await send(client, from: alex, to: bea, 3_000, proof: proof).status == .created)
                #expect(try await send(client, from: alex, to: bea, 3_000, proof: proof).status == .forbidden, "spent")
                #expect(try await server.balance(client, alex.token) == 100_000 - 12_000)
                // Another day starts again below the step-up amount (signed in again: the session ended meanwhile).
                server.clock.advance(by: 24 * 3600)
                let again = try await client.send(
                    .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202 555 0170", "password": Seeds.password]
                )
                let token = try #require(again.json["token"] as? String, "\(again.body)")
                let alexAgain = Registered(token: token, userID: alex.userID, phone: alex.phone)
                #expect(try await send(client, from: alexAgain, to: bea, 3_000).status == .created)
            }
        }
    }

    @Test("A stranger's failed sign-ins never pause the owner's step-up; the owner's wrong step-ups pause only theirs")
    func strangersDoNotPauseStepUp() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let alex = try await server.register(client, number: "202 555 0173", name: "Alex Reed")
            let bea = try await server.register(client, number: "202 555 0174", name: "Bea Lane")
            for _ in 0..<6 {
                _ = try await client.send(
                    .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202 555 0173", "password": "not-it-at-all"]
                )
            }
            let paused = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "202 555 0173", "password": Seeds.password]
            )
            #expect(paused.status == .tooManyRequests, "sign-in on the number is paused: \(paused.body)")
            #expect(try await stepUp(client, alex, for: bea, 20_000).status == .created, "the owner's step-up is not")
            for _ in 0..<5 { _ = try await stepUp(client, alex, for: bea, 20_000, password: "not-it-at-all") }
            #expect(try await stepUp(client, alex, for: bea, 20_000).status == .tooManyRequests, "a thief guessing is paused")
        }
    }

    @Test("A stranger's wrong registration and reset codes never pause the owner's card activation code", arguments: TestStore.allCases)
    func strangersDoNotPauseOwnerCodes(store: TestStore) async throws {
        var server = try TestServer().allowingAuthBursts(of: 200)
        server.configuration.limits.codesPerNumberPerHour = 100
        server.configuration.limits.codesPerNumberPerDay = 100
        server.configuration.limits.codesPerAddressPerHour = 100
        defer { server.remove() }
        try await server.withServer(on: store) { server in
            try await server.withRouter { client in
                let owner = try await server.register(client, number: "202 555 0175", name: "Alex Reed")
                // The stranger knows the number only: resets, each tried wrong until the number's cap for them.
                var wrong = 0
                while wrong < 25 {
                    server.clock.advance(by: 31)
                    let (verificationID, _) = try await server.startReset(client, number: "202 555 0175")
                    for _ in 0..<5 where wrong < 25 {
                        _ = try await client.send(.post, "/v1/auth/password/reset", json: [
                            "verificationId": verificationID, "code": "000000", "newPassword": "another-pass-2026",
                        ], idempotencyKey: UUID().uuidString)
                        wrong += 1
                    }
                }
                server.clock.advance(by: 31)
                let (verificationID, code) = try await server.startReset(client, number: "202 555 0175")
                let paused = try await client.send(.post, "/v1/auth/password/reset", json: [
                    "verificationId": verificationID, "code": code, "newPassword": "another-pass-2026",
                ], idempotencyKey: UUID().uuidString)
                #expect(paused.status == .tooManyRequests, "the reset codes of the number are paused: \(paused.body)")
                // The owner, signed in, still activates the card with the code sent to them.
                server.clock.advance(by: 31)
                let activation = try await server.startIssuedCardActivation(client, token: owner.token)
                let activated = try await client.send(.post, "/v1/cards/\(activation.id)/activate", json: [
                    "last4": activation.last4, "verificationId": activation.verificationID, "code": activation.code,
                ], token: owner.token)
                #expect(activated.status == .ok, "\(activated.body)")
            }
        }
    }

    @Test("Names and notes others see refuse hidden, direction-turning and stacked characters, at the server")
    func sharedText() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let alex = try await server.register(client, number: "202 555 0176", name: "Alex Reed")
            let bea = try await server.register(client, number: "202 555 0177", name: "Bea Lane")
            for note in ["pay\u{202E}fdp.exe", "a\u{200B}b", "x\u{0085}y", "Z" + String(repeating: "\u{0301}", count: 9), "a\u{2066}b\u{2069}"] {
                let reply = try await client.send(.post, "/v1/transfers", json: [
                    "recipientId": bea.userID, "amountMinor": 100, "currency": "USD", "note": note,
                ], token: alex.token, idempotencyKey: UUID().uuidString)
                #expect(reply.status == .unprocessableContent && reply.errorFields == ["note"], "\(note.unicodeScalars.map(\.value)): \(reply.body)")
            }
            for note in ["Lunch 🍕", "👩‍💻 work", "Café déjà vu", "می‌خواهم", "Việt Nam"] {
                let reply = try await client.send(.post, "/v1/transfers", json: [
                    "recipientId": bea.userID, "amountMinor": 100, "currency": "USD", "note": note,
                ], token: alex.token, idempotencyKey: UUID().uuidString)
                #expect(reply.status == .created, "\(note): \(reply.body)")
            }
            let named = try await client.send(.post, "/v1/auth/register", json: [
                "countryCode": "+1", "phoneNumber": "202 555 0178", "fullName": "Eve\u{202E}nomis", "password": Seeds.password,
            ], idempotencyKey: UUID().uuidString)
            #expect([.badRequest, .unprocessableContent].contains(named.status) && named.errorFields == ["fullName"], "\(named.body)")
        }
    }

    @Test("One client address holds at most connectionsPerAddress connections; the next is closed, others are served")
    func connectionsPerAddress() async throws {
        try await ConnectionTimeoutTests.withInstance(limits: { $0.connectionsPerAddress = 3 }) { instance in
            let held = try await RawConnection.open(3, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            for connection in held { #expect(await connection.firstBytes().hasPrefix("HTTP/1.1 200")) }
            let fourth = try await RawConnection.open(1, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await RawConnection.closedWithin(.seconds(10), fourth) == 1)
            #expect(await fourth[0].firstBytes() == "", "closed unanswered")
            try await held[0].channel.close()
            try await Task.sleep(for: .milliseconds(200))
            let again = try await RawConnection.open(1, to: instance.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await again[0].firstBytes().hasPrefix("HTTP/1.1 200"), "a place freed is taken again")
            for connection in held + again { try? await connection.channel.close() }
        }
    }

    @Test("Event streams: at most eventStreamsPerAddress from one address whatever the users; a dropped stream frees its place at once")
    func eventStreams() async throws {
        let server = try { () throws -> TestServer in
            var server = try TestServer()
            server.configuration.limits.eventStreamsPerAddress = 2
            server.configuration.limits.eventStreamsPerUser = 1
            return server
        }()
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var users: [Registered] = []
            for index in 0..<3 { users.append(try await server.register(client, number: "202 555 019\(index)", name: "User Number")) }
            func stream(_ user: Registered) async throws -> RawConnection {
                try await RawConnection.open(1, to: port, sending: "GET /v1/events HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer \(user.token)\r\nAccept: text/event-stream\r\n\r\n")[0]
            }
            let first = try await stream(users[0])
            let second = try await stream(users[1])
            #expect(await first.firstBytes().hasPrefix("HTTP/1.1 200"))
            #expect(await second.firstBytes().hasPrefix("HTTP/1.1 200"))
            let third = try await stream(users[2])
            #expect(await third.firstBytes().hasPrefix("HTTP/1.1 429"), "a third user from the same address")
            try await first.channel.close()
            // Its place is freed when the connection closes, long before the stream's next keep-alive (30 s).
            var again = ""
            for _ in 0..<20 where !again.hasPrefix("HTTP/1.1 200") {
                try await Task.sleep(for: .milliseconds(100))
                let attempt = try await stream(users[0])
                again = await attempt.firstBytes()
                if !again.hasPrefix("HTTP/1.1 200") { try? await attempt.channel.close() }
            }
            #expect(again.hasPrefix("HTTP/1.1 200"), "the dropped stream's user streams again: \(again.prefix(40))")
        }
    }
}
