import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SkiffServer

@Suite("Secrets stay secret")
struct SecurityTests {
    @Test("A whole flow leaves no password, card number, CVC, code or token in the log")
    func logsHoldNoSecrets() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let password = "Zebra-Quartz-77"
        let newPassword = "Mango-Violet-88"
        let cvc = "9371"
        let secrets = try await server.withRouter { client in
            var secrets: [String] = [password, newPassword, Seeds.amex, "3782 822463 10005", cvc]
            let user = try await server.register(client, password: password)
            secrets.append(user.token)
            // The wallet tokenizes the card at the network (here the simulated one, on this server) and sends Skiff
            // the token; a mistyped number is refused by the network.
            let added = try await server.addCard(
                client, token: user.token, number: "3782 822463 10005", cvc: cvc, expiryMonth: 4, expiryYear: 2030
            )
            #expect(added.status == .created)
            let again = try await server.addCard(client, token: user.token, number: Seeds.amex, cvc: cvc, expiryMonth: 4, expiryYear: 2030)
            #expect(again.status == .conflict)
            let mistyped = try await client.sendForm(
                SimulatedCardNetwork.apiPath + "/v1/tokens",
                FormBody.card(key: SimulatedCardNetwork.publishableKey, number: "4242424242424241", cvc: cvc)
            )
            #expect(mistyped.status.code == 402)
            secrets.append("4242424242424241")
            // A top-up from it, and one that waits for its holder's bank and is confirmed there.
            let cardID = try #require(added.json["id"] as? String)
            #expect(try await server.topUp(client, user.token, card: cardID, 1_000, key: UUID().uuidString).status == .created)
            let confirming = try await server.addCard(client, token: user.token, number: "4000002760003184", cvc: "937")
            let waiting = try await server.topUp(
                client, user.token, card: try #require(confirming.json["id"] as? String), 2_000, key: UUID().uuidString
            )
            let actionURL = try #require(waiting.json["actionUrl"] as? String)
            #expect(try await client.sendForm(actionURL, ["success": "true"]).status == .ok)
            #expect(try await client.send(.get, "/v1/topups/\(try #require(waiting.json["id"] as? String))", token: user.token)
                .json["status"] as? String == "completed")
            secrets.append("4000002760003184")
            let issuedCard = try #require(try await client.send(.get, "/v1/cards", token: user.token).array.first)
            let issued = try #require(issuedCard["id"] as? String)
            let activation = try await client.send(
                .post, "/v1/cards/\(issued)/activation", json: ["last4": issuedCard["last4"] as? String ?? ""], token: user.token
            )
            let activationID = try #require(activation.json["verificationId"] as? String)
            _ = try await client.send(
                .post, "/v1/cards/\(issued)/activate", json: ["last4": "0000", "verificationId": activationID, "code": "000000"],
                token: user.token
            )
            _ = try await client.send(.get, "/v1/transactions?query=Skiff", token: user.token)
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": password]
            )
            secrets.append(try #require(login.json["token"] as? String))
            _ = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550100", "password": "wrong-\(password)"]
            )
            server.clock.advance(by: 31)
            let forgot = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": "2025550100"])
            let resetID = try #require(forgot.json["verificationId"] as? String)
            _ = try await client.send(
                .post, "/v1/auth/password/reset",
                json: ["verificationId": resetID, "code": try server.lastCode(to: user.phone), "newPassword": newPassword]
            )
            _ = try await client.send(.post, "/v1/auth/logout", token: user.token)
            secrets += server.sender.messages.map(\.code)
            return secrets
        }
        // Identifiers are hex; take them out so that a short secret cannot match inside one by chance.
        let log = server.logText.replacingOccurrences(of: "[0-9a-f-]{16,}", with: "<id>", options: .regularExpression)
        #expect(log.contains("card added") && log.contains("top-up completed"))
        #expect(log.contains("one-time code issued"))
        for secret in secrets {
            #expect(!log.contains(secret), "the log holds a secret")
        }
        #expect(!server.logText.contains(SessionToken.hash(secrets[5])))
        // Card numbers look like identifiers to the pattern above (16 digits are hex): the log as it is holds none.
        for number in [Seeds.amex, "4242424242424241", "4000002760003184"] {
            #expect(!server.logText.contains(number), "the log holds a card number")
        }
    }

    @Test("Cards added through the network's token route leave no card number in the database files, nor in the log, whatever is done with them")
    func databaseHoldsNoCardNumbers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let numbers = [Seeds.visa, Seeds.mastercard, Seeds.amex, Seeds.discover, "4000002760003184", "4000000000000341"]
        let whileRunning = try await server.withRouter { client in
            let user = try await server.register(client)
            for (index, number) in numbers.enumerated() {
                let cvc = number == Seeds.amex ? "7319" : "731"
                let key = "same-\(index)"
                let reply = try await server.addCard(client, token: user.token, number: number, cvc: cvc, key: key)
                #expect(reply.status == .created)
                // A replay keeps the response, which must not hold the number either.
                #expect(try await server.addCard(client, token: user.token, number: number, cvc: cvc, key: key).status == .created)
                // A top-up writes the payment, the card's fingerprint and, for …3184, where to confirm it.
                _ = try await server.topUp(client, user.token, card: try #require(reply.json["id"] as? String), 1_000, key: key)
            }
            return try databaseFiles(in: server.directory)
        }
        let log = server.logText
        for number in numbers {
            #expect(!log.contains(number), "the log holds a card number")
        }
        #expect(whileRunning.names.contains("skiff.sqlite-wal"))
        let afterClose = try databaseFiles(in: server.directory)
        for files in [whileRunning, afterClose] {
            #expect(files.bytes.count > 0)
            for number in numbers {
                #expect(files.bytes.range(of: Data(number.utf8)) == nil, "a card number is in the database files")
            }
        }
    }

    /// The bytes of the database and its -wal and -shm files, as they are on disk.
    func databaseFiles(in directory: URL) throws -> (names: [String], bytes: Data) {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("skiff.sqlite") }
        var bytes = Data()
        for name in names {
            bytes += try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return (names, bytes)
    }

    @Test("Only the SHA-256 of a session token is stored")
    func tokensStoredHashed() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let token = try await server.withRouter { client in try await server.register(client).token }
        let pool = try DatabasePool(path: server.databasePath)
        let stored = try await pool.read { db in try String.fetchAll(db, sql: "SELECT token_hash FROM sessions") }
        #expect(stored == [SessionToken.hash(token)])
        #expect(SessionToken.hash(token).count == 64)
        let passwordHashes = try await pool.read { db in try String.fetchAll(db, sql: "SELECT password_hash FROM users") }
        #expect(passwordHashes.allSatisfy { $0.hasPrefix("$2") })
        let codeHashes = try await pool.read { db in try String.fetchAll(db, sql: "SELECT code_hash FROM verifications") }
        #expect(codeHashes.allSatisfy { $0.count == 64 })
        #expect(!codeHashes.contains(server.sender.messages[0].code))
    }

    @Test("The database files and the server key are the owner's only")
    func filePermissions() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let modes = try await server.withRouter { client in
            _ = try await server.register(client)
            var modes: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: server.directory.path)
            where name.hasPrefix("skiff.sqlite") || name == "server.key" {
                let path = server.directory.appendingPathComponent(name).path
                modes[name] = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
            }
            return modes
        }
        #expect(Set(modes.keys).isSuperset(of: ["skiff.sqlite", "skiff.sqlite-wal", "server.key"]))
        for (name, mode) in modes {
            #expect(mode == 0o600, "\(name)")
        }
    }

    @Test("Responses never show SQL or internals")
    func noInternalsInResponses() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let replies = [
                try await client.send(.post, "/v1/auth/login", rawBody: "not json"),
                try await client.send(.get, "/v1/me", token: "x"),
                try await client.send(.get, "/v1/transactions?cursor=%27%20OR%201%3D1"),
                try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": "' OR 1=1 --", "code": "123456"]),
            ]
            for reply in replies {
                #expect(reply.contentType == "application/problem+json")
                for leak in ["SELECT", "sqlite", "GRDB", "Swift/", ".swift", "DecodingError"] {
                    #expect(!reply.body.contains(leak))
                }
            }
        }
    }
}
