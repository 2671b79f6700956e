import AsyncHTTPClient
import Foundation
import GRDB
import HTTPTypes
import NIOCore
import NIOHTTP1
import SkiffCore
import Testing
@testable import SkiffServer

/// The real `skiff-server` binary SIGKILLed (or stopped by SIGTERM) while clients write, then restarted on the same
/// files: every write a client saw acknowledged is still there, and the SQLite file passes `PRAGMA integrity_check`.
///
/// CI runs `KilledServer.defaultRounds` kill rounds per store; `SKIFF_DURABILITY_ROUNDS=N` runs N, and
/// `SKIFF_DURABILITY_SEED` replays the random kill moments a failure printed.
@Suite("Server killed mid-write", .serialized)
struct KilledServerTests {
    @Test("SQLite: after each SIGKILL the file is intact and every acknowledged write is there")
    func sqlite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-killed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("skiff.sqlite").path
        let run = try KilledServer(folder: folder, database: database)
        try await run.rounds { round in
            let integrity = try DatabaseQueue(path: database).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"], "round \(round), seed \(run.seed): \(integrity)")
        }
    }

    @Test("PostgreSQL: after each SIGKILL every acknowledged write is there")
    func postgres() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-killed-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPostgres.withFreshDatabase { databaseURL in
            try await KilledServer(folder: folder, database: databaseURL).rounds { _ in }
        }
    }

    @Test("SIGTERM while clients write: the server finishes what it accepted and exits 0; every acknowledged write is there")
    func terminated() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-terminated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("skiff.sqlite").path
        try await KilledServer(folder: folder, database: database, stop: .terminate).rounds { _ in }
    }
}

/// One `skiff-server serve` process after another on the same database, key file and SMS outbox, with
/// clients writing through each until it is SIGKILLed.
struct KilledServer {
    /// Kill rounds when `SKIFF_DURABILITY_ROUNDS` is unset: enough for CI, a few seconds each.
    static let defaultRounds = 3
    /// New accounts registered in each round, each then marking its welcome read.
    static let registeringPerRound = 2
    /// Accounts seeded before the first start that log in during a round, mark their welcome read and activate
    /// their card.
    static let seededPerRound = 2

    /// How the server is stopped in the middle of the writes.
    enum Stop: Sendable {
        /// SIGKILL: nothing in flight is finished.
        case kill
        /// SIGTERM: the graceful shutdown, which must finish what it accepted and exit 0.
        case terminate
    }

    let folder: URL
    let database: String
    let stop: Stop
    let seed: UInt64
    let roundCount: Int

    init(folder: URL, database: String, stop: Stop = .kill) throws {
        self.folder = folder
        self.database = database
        self.stop = stop
        let environment = ProcessInfo.processInfo.environment
        seed = environment["SKIFF_DURABILITY_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        roundCount = environment["SKIFF_DURABILITY_ROUNDS"].flatMap { Int($0) }.map { max(1, $0) } ?? Self.defaultRounds
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let keyFile = folder.appendingPathComponent("server.key").path
        guard FileManager.default.createFile(atPath: keyFile, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600])
        else { throw TestFailure("cannot write \(keyFile)") }
    }

    var outbox: String { folder.appendingPathComponent("sms-outbox.jsonl").path }

    /// Runs the kill rounds: clients write, the server is SIGKILLed, `afterKill` runs with the server down, and a
    /// restarted server (the next round's) must hold every write acknowledged so far.
    func rounds(afterKill: (Int) async throws -> Void) async throws {
        var random = SplitMix64(seed: seed)
        let ledger = AcknowledgedWrites()
        let seeded = (0..<roundCount * Self.seededPerRound).map { String(format: "202556%04d", 1000 + $0) }
        try await seed(seeded)
        var server = try await ServerProcess.start(folder: folder, database: database, name: "start")
        for round in 1...roundCount {
            let previous = await ledger.accounts
            let registering = (0..<Self.registeringPerRound).map { index in
                Newcomer(number: String(format: "202555%04d", 1000 + (round - 1) * Self.registeringPerRound + index), arrival: .registers, address: "10.0.\(round % 250).\(index + 1)")
            }
            let loggingIn = (0..<Self.seededPerRound).map { index in
                Newcomer(number: seeded[(round - 1) * Self.seededPerRound + index], arrival: .logsIn, address: "10.0.\(round % 250).\(100 + index)")
            }
            let newcomers = registering + loggingIn
            let writesBefore = await ledger.count
            let killDelay = Duration.milliseconds(Int(random.next() % 1_200))
            let writing = server
            try await withThrowingTaskGroup(of: Void.self) { group in
                for newcomer in newcomers {
                    group.addTask { await newcomer.write(to: writing.client, outbox: outbox, ledger: ledger) }
                }
                for (index, account) in previous.enumerated() {
                    let client = writing.client.from("10.1.\(round % 250).\(index % 250 + 1)")
                    group.addTask { await account.addCards(client, ledger: ledger) }
                }
                group.addTask {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while await ledger.count == writesBefore, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    try await Task.sleep(for: killDelay)
                    switch stop {
                    case .kill: writing.kill()
                    case .terminate:
                        let status = try await writing.terminate()
                        #expect(status == 0, "round \(round), seed \(seed): SIGTERM ended skiff-server with status \(status)")
                    }
                }
                try await group.waitForAll()
            }
            let acknowledged = await ledger.count
            #expect(acknowledged > writesBefore, "round \(round), seed \(seed): no write was acknowledged before the kill")
            try await afterKill(round)
            server = try await ServerProcess.start(folder: folder, database: database, name: "after-kill-\(round)")
            let checked = try await ledger.check(server.client, context: "round \(round), seed \(seed)")
            print("Server killed mid-write, round \(round)/\(roundCount) (seed \(seed)): \(checked) acknowledged writes checked")
        }
        server.kill()
    }
}

extension KilledServer {
    /// Creates the accounts of `numbers` (password `Seeds.password`) with the server's own seeder, before it runs.
    func seed(_ numbers: [String]) async throws {
        let configuration = SkiffServerConfiguration(
            database: DatabaseLocation(parsing: database), smsOutboxPath: outbox,
            keyFile: folder.appendingPathComponent("server.key").path, bcryptCost: 4, seedDemoDataIfEmpty: false,
            logger: TestStore.logger
        )
        for number in numbers {
            _ = try await SkiffServerSeeder.seed(
                configuration, countryCode: "+1", phoneNumber: number, fullName: "Kim Durable", password: Seeds.password, transactions: 0
            )
        }
    }
}

/// A `skiff-server serve` child process on a free loopback port.
struct ServerProcess: Sendable {
    let process: Process
    let client: ForwardingClient

    /// Starts the built binary (bcrypt cost 10, this test as a trusted proxy) and waits until it listens.
    static func start(folder: URL, database: String, name: String) async throws -> ServerProcess {
        let log = folder.appendingPathComponent("\(name).log")
        try Data().write(to: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtProduct("skiff-server"))
        process.arguments = [
            "serve", "--port", "0", "--bcrypt-cost", "10", "--trusted-proxy", "127.0.0.1",
            "--database", database, "--key-file", folder.appendingPathComponent("server.key").path,
            "--sms-outbox", folder.appendingPathComponent("sms-outbox.jsonl").path,
        ]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SKIFF_DATABASE_URL" }
        process.standardInput = FileHandle.nullDevice
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains("skiff-server listening"), let port = text.firstMatch(of: /port=(\d+)/)?.1 {
                return ServerProcess(process: process, client: ForwardingClient(baseURL: "http://127.0.0.1:\(port)", address: "10.255.0.1"))
            }
            guard process.isRunning else { throw TestFailure("skiff-server stopped before it listened:\n\(text)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw TestFailure("skiff-server did not listen within 60 s:\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// SIGKILL, then waits for the process to be gone.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits (without holding a thread) for the process to exit; its exit status, or a failure when it
    /// is still running a minute later (its grace period is 10 s) or was ended by a signal.
    func terminate() async throws -> Int32 {
        Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill()
                throw TestFailure("skiff-server was still running a minute after SIGTERM")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard process.terminationReason == .exit else {
            throw TestFailure("skiff-server was ended by signal \(process.terminationStatus) after SIGTERM")
        }
        return process.terminationStatus
    }

    /// An executable built next to the test bundle.
    private static func builtProduct(_ name: String) throws -> String {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw TestFailure("\(name) was not found next to the tests; build it first (swift build --product \(name)).")
    }
}

/// Sends requests over a real socket as a proxy would for one client address (`X-Forwarded-For`), so that
/// each simulated client has its own per-address limits.
struct ForwardingClient: Sendable {
    let baseURL: String
    let address: String

    /// The same server, for another client address.
    func from(_ address: String) -> ForwardingClient { ForwardingClient(baseURL: baseURL, address: address) }

    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: [String: any Sendable]? = nil, token: String? = nil,
        idempotencyKey: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + uri)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "X-Forwarded-For", value: address)
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: HTTPResponse.Status(code: Int(response.status.code)), headers: [:], body: String(buffer: body))
    }

    /// The simulated card network's token for `number`, from the server's own tokens route, as the wallet gets one.
    func cardToken(number: String) async throws -> String {
        var request = HTTPClientRequest(url: baseURL + SimulatedCardNetwork.apiPath + "/v1/tokens")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "X-Forwarded-For", value: address)
        request.body = .bytes(ByteBuffer(string: FormBody.encode(FormBody.card(key: SimulatedCardNetwork.publishableKey, number: number))))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok,
              let token = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["id"] as? String
        else { throw TestFailure("tokenizing answered \(response.status): \(body)") }
        return token
    }
}

/// A client with an account of its own for one round. It registers a new number (verifying it with the code from
/// the outbox) or logs in to an account seeded beforehand, marks its welcome notification read, activates its
/// issued card (seeded accounts only: a number gets one code per 30 s, and a new one has just had its
/// registration code), then adds cards until the server goes away.
struct Newcomer: Sendable {
    enum Arrival {
        case registers
        case logsIn
    }

    let number: String
    let arrival: Arrival
    let address: String

    func write(to server: ForwardingClient, outbox: String, ledger: AcknowledgedWrites) async {
        let client = server.from(address)
        do {
            guard let token = try await arrive(client, outbox: outbox, ledger: ledger) else { return }
            let account = AcknowledgedAccount(number: number, token: token)
            await ledger.acknowledge(account: account)

            let notifications = try await client.send(.get, "/v1/notifications", token: token)
            for notification in notifications.array where notification["read"] as? Bool == false {
                guard let id = notification["id"] as? String else { continue }
                let read = try await client.send(.post, "/v1/notifications/\(id)/read", token: token)
                guard read.status == .noContent else { return await ledger.unexpected("mark read: \(read.status) \(read.body)") }
                await ledger.acknowledge(read: id, of: account)
            }

            if arrival == .logsIn {
                let cards = try await client.send(.get, "/v1/cards", token: token)
                guard let issued = cards.array.first(where: { $0["kind"] as? String == "issued" }),
                      let cardID = issued["id"] as? String, let last4 = issued["last4"] as? String
                else { return await ledger.unexpected("no issued card: \(cards.status) \(cards.body)") }
                let activation = try await client.send(.post, "/v1/cards/\(cardID)/activation", json: ["last4": last4], token: token)
                guard activation.status == .accepted, let challenge = activation.json["verificationId"] as? String else {
                    return await ledger.unexpected("activation: \(activation.status) \(activation.body)")
                }
                let code = try Self.latestCode(in: outbox, to: "+1" + number, purpose: "card-activation")
                let activated = try await client.send(
                    .post, "/v1/cards/\(cardID)/activate", json: ["last4": last4, "verificationId": challenge, "code": code], token: token
                )
                guard activated.status == .ok else { return await ledger.unexpected("activate: \(activated.status) \(activated.body)") }
                await ledger.acknowledge(activated: cardID, of: account)
            }

            await account.addCards(client, ledger: ledger)
        } catch {
            // The server was killed: whatever had no answer may or may not have been written.
        }
    }

    /// Registers and verifies, or logs in; the session token, or nil after an answer a live server should not give.
    private func arrive(_ client: ForwardingClient, outbox: String, ledger: AcknowledgedWrites) async throws -> String? {
        switch arrival {
        case .registers:
            let started = try await client.send(
                .post, "/v1/auth/register",
                json: ["countryCode": "+1", "phoneNumber": number, "fullName": "Kim Durable", "password": Seeds.password],
                idempotencyKey: UUID().uuidString
            )
            guard started.status == .accepted, let verificationID = started.json["verificationId"] as? String else {
                await ledger.unexpected("register \(number): \(started.status) \(started.body)")
                return nil
            }
            let code = try Self.latestCode(in: outbox, to: "+1" + number, purpose: "registration")
            let verified = try await client.send(.post, "/v1/auth/register/verify", json: ["verificationId": verificationID, "code": code])
            guard verified.status == .created, let token = verified.json["token"] as? String else {
                await ledger.unexpected("verify \(number): \(verified.status) \(verified.body)")
                return nil
            }
            return token
        case .logsIn:
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": number, "password": Seeds.password]
            )
            guard login.status == .ok, let token = login.json["token"] as? String else {
                await ledger.unexpected("login \(number): \(login.status) \(login.body)")
                return nil
            }
            return token
        }
    }

    /// The newest code for `e164` and `purpose` in the SMS outbox.
    static func latestCode(in outbox: String, to e164: String, purpose: String) throws -> String {
        let messages = (FileManager.default.contents(atPath: outbox) ?? Data()).split(separator: 0x0A).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
        guard let message = messages.last(where: { $0["to"] as? String == e164 && $0["purpose"] as? String == purpose }),
              let code = message["code"] as? String
        else { throw TestFailure("no \(purpose) code for \(e164) in the outbox") }
        return code
    }
}

/// An account whose registration the server acknowledged: its number and session token.
struct AcknowledgedAccount: Sendable, Hashable {
    let number: String
    let token: String

    /// Adds external cards (random valid Visa numbers, each tokenized at the simulated network and added with its own
    /// Idempotency-Key) until the server goes away.
    func addCards(_ client: ForwardingClient, ledger: AcknowledgedWrites) async {
        while true {
            let key = UUID().uuidString
            do {
                let body = AddedCard.body(cardToken: try await client.cardToken(number: AddedCard.randomVisa()))
                let added = try await client.send(.post, "/v1/cards", json: body, token: token, idempotencyKey: key)
                guard added.status == .created, let id = added.json["id"] as? String else {
                    return await ledger.unexpected("add card: \(added.status) \(added.body)")
                }
                await ledger.acknowledge(card: AddedCard(id: id, key: key, body: body), of: self)
            } catch {
                return
            }
        }
    }
}

/// A card the server acknowledged with 201, and the request that added it (to replay its Idempotency-Key).
struct AddedCard: @unchecked Sendable {
    let id: String
    let key: String
    let body: [String: any Sendable]

    static func body(cardToken: String) -> [String: any Sendable] {
        ["cardToken": cardToken, "holderName": "Kim Durable"]
    }

    /// A 16-digit Visa number with a correct Luhn check digit, not one of the test cards the simulated network declines.
    static func randomVisa() -> String {
        while true {
            var digits = [4] + (0..<14).map { _ in Int.random(in: 0...9) }
            let sum = digits.reversed().enumerated().reduce(0) { sum, item in
                let doubled = item.offset.isMultiple(of: 2) ? item.element * 2 : item.element
                return sum + (doubled > 9 ? doubled - 9 : doubled)
            }
            digits.append((10 - sum % 10) % 10)
            let number = digits.map(String.init).joined()
            if SimulatedCardNetwork.TestCard(rawValue: String(number.suffix(4))) == nil { return number }
        }
    }
}

/// Every write a client saw acknowledged (a 2xx answer), across all rounds.
actor AcknowledgedWrites {
    private(set) var accounts: [AcknowledgedAccount] = []
    private var reads: [AcknowledgedAccount: Set<String>] = [:]
    private var activated: [AcknowledgedAccount: String] = [:]
    private var cards: [AcknowledgedAccount: [AddedCard]] = [:]
    private var surprises: [String] = []
    /// How many writes were acknowledged so far.
    private(set) var count = 0

    func acknowledge(account: AcknowledgedAccount) {
        accounts.append(account)
        count += 1
    }

    func acknowledge(read id: String, of account: AcknowledgedAccount) {
        reads[account, default: []].insert(id)
        count += 1
    }

    func acknowledge(activated card: String, of account: AcknowledgedAccount) {
        activated[account] = card
        count += 1
    }

    func acknowledge(card: AddedCard, of account: AcknowledgedAccount) {
        cards[account, default: []].append(card)
        count += 1
    }

    /// An answer a live server should not have given.
    func unexpected(_ what: String) {
        surprises.append(what)
    }

    /// Reads every acknowledged write back from `client` and replays each account's last card request; returns how
    /// many writes were checked.
    func check(_ client: ForwardingClient, context: String) async throws -> Int {
        #expect(surprises.isEmpty, "\(context): \(surprises)")
        var checked = 0
        for account in accounts {
            let me = try await client.send(.get, "/v1/me", token: account.token)
            #expect(me.status == .ok, "\(context): the account \(account.number) or its session is gone: \(me.status)")
            checked += 1

            let listed = try await client.send(.get, "/v1/notifications", token: account.token)
            let readIDs = Set(listed.array.filter { $0["read"] as? Bool == true }.compactMap { $0["id"] as? String })
            let expectedReads = reads[account] ?? []
            #expect(expectedReads.isSubset(of: readIDs), "\(context): \(account.number) lost read marks \(expectedReads.subtracting(readIDs))")
            checked += expectedReads.count

            let cardList = try await client.send(.get, "/v1/cards", token: account.token).array
            let stored = Dictionary(cardList.compactMap { card in (card["id"] as? String).map { ($0, card) } }) { first, _ in first }
            if let issued = activated[account] {
                #expect(stored[issued]?["status"] as? String == "active", "\(context): \(account.number)'s card \(issued) is no longer active")
                checked += 1
            }
            let added = cards[account] ?? []
            let missing = added.map(\.id).filter { stored[$0] == nil }
            #expect(missing.isEmpty, "\(context): \(account.number) lost acknowledged cards \(missing)")
            checked += added.count
            if let last = added.last {
                let replay = try await client.send(.post, "/v1/cards", json: last.body, token: account.token, idempotencyKey: last.key)
                #expect(replay.json["id"] as? String == last.id, "\(context): replaying \(last.key) gave \(replay.status) \(replay.body)")
            }
        }
        return checked
    }
}
