import Foundation
import PostgresNIO
import SkiffCore
import Testing
@testable import SkiffServer

/// A short bank test, as `scripts/bank-test.sh` runs a long one: clients send random transfers through two real
/// `skiff-server` processes on one PostgreSQL, retrying each request whose answer is lost with its Idempotency-Key,
/// while one process is SIGKILLed and restarted. Every acknowledged transfer is there once, nothing else is, and
/// every ledger invariant holds.
@Suite("Bank test, short", .serialized)
struct BankTests {
    @Test("Two instances on one PostgreSQL, one SIGKILLed mid-run: each acknowledged transfer once, nothing else, every invariant")
    func twoInstancesOneKilled() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-bank-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPostgres.withFreshDatabase { databaseURL in
            try await Bank(folder: folder, database: databaseURL).run()
        }
    }
}

/// The run: `users` seeded accounts, `clients` concurrent senders for `duration`, one kill in the middle.
struct Bank {
    static let users = 4
    static let clients = 4
    static let duration = Duration.seconds(6)
    static let opening: Int64 = 100_000
    /// Answers that write nothing and are right here: a payer short of money, or one whose day passed the step-up
    /// amount (`TransferRules.needsStepUp`; this short run sends no proofs, scripts/bank-test.py does).
    static let refusals: Set<String> = ["urn:skiff:problem:insufficient-funds", "urn:skiff:problem:step-up-required"]

    let folder: URL
    let database: String

    func run() async throws {
        let setup = try KilledServer(folder: folder, database: database)
        let numbers = (0..<Self.users).map { String(format: "202557%04d", $0) }
        try await setup.seed(numbers)
        let servers = Servers([
            try await ServerProcess.start(folder: folder, database: database, name: "a-1"),
            try await ServerProcess.start(folder: folder, database: database, name: "b-1"),
        ])
        var users: [(id: String, token: String)] = []
        for (index, number) in numbers.enumerated() {
            let login = try await servers.client(index).from("10.3.0.\(index + 1)").send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": number, "password": Seeds.password]
            )
            let user = login.json["user"] as? [String: Any]
            guard login.status == .ok, let token = login.json["token"] as? String, let id = user?["id"] as? String else {
                throw TestFailure("login \(number): \(login.status) \(login.body)")
            }
            users.append((id, token))
        }
        let participants = users
        let acknowledged = Acknowledged()
        let deadline = ContinuousClock.now + Self.duration
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.clients {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(index + 1))
                    while ContinuousClock.now < deadline {
                        let payer = Int(random.next() % UInt64(Self.users))
                        let payee = (payer + 1 + Int(random.next() % UInt64(Self.users - 1))) % Self.users
                        // Small amounts keep most payers' day under the step-up amount for the run.
                        let amount = Int64(1 + random.next() % 100)
                        let body: [String: any Sendable] = [
                            "recipientId": participants[payee].id, "amountMinor": amount, "currency": "USD",
                        ]
                        let reply = try await servers.sendUntilDefinite(
                            body, token: participants[payer].token, key: UUID().uuidString, address: "10.4.0.\(index + 1)"
                        )
                        if reply.status == .created, let id = reply.json["id"] as? String {
                            await acknowledged.add(id: id, payer: payer, payee: payee, amount: amount)
                        } else if !Self.refusals.contains(reply.problemType ?? "") {
                            await acknowledged.unexpected("\(reply.status) \(reply.body)")
                        }
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: Self.duration / 2)
                await servers.kill(0)
                try await Task.sleep(for: .milliseconds(300))
                await servers.replace(0, with: try await ServerProcess.start(folder: folder, database: database, name: "a-2"))
            }
            try await group.waitForAll()
        }

        let transfers = await acknowledged.transfers
        let surprises = await acknowledged.surprises
        #expect(surprises.isEmpty, "\(surprises)")
        #expect(transfers.count > 20, "only \(transfers.count) transfers were acknowledged")
        #expect(Set(transfers.map(\.id)).count == transfers.count, "a transfer was acknowledged for two keys")
        var expected = [Int64](repeating: Self.opening, count: Self.users)
        for transfer in transfers {
            expected[transfer.payer] -= transfer.amount
            expected[transfer.payee] += transfer.amount
        }
        let client = await servers.client(1)
        for (index, user) in users.enumerated() {
            let me = try await client.send(.get, "/v1/me", token: user.token)
            let balance = (me.json["balance"] as? [String: Any])?["amountMinor"] as? Int
            #expect(balance.map(Int64.init) == expected[index], "user \(index): \(me.body)")
        }
        for transfer in transfers.prefix(50) {
            let read = try await client.send(.get, "/v1/transfers/\(transfer.id)", token: users[transfer.payer].token)
            #expect(read.status == .ok && read.json["amountMinor"] as? Int == Int(transfer.amount), "\(read.body)")
        }
        // Straight from the database: the transfers are exactly the acknowledged ones, and the ledger balances.
        let stored = try await TestPostgres.withAdmin(database) { client in
            var ids: [String] = []
            for try await id in try await client.query("SELECT id FROM transfers WHERE kind = 'transfer'").decode(String.self) {
                ids.append(id)
            }
            return ids
        }
        #expect(stored.count == Set(stored).count)
        #expect(Set(stored) == Set(transfers.map(\.id)))
        let check = try await LedgerCheck.read(.postgres(url: database), logger: TestStore.logger)
        #expect(check.isClean, "\(check)")
        await servers.killAll()
        let retries = await servers.retries
        print("Bank test, short: \(transfers.count) transfers acknowledged, \(retries) retried requests")
    }
}

/// The running server processes; a killed one has no client until it is replaced.
actor Servers {
    private var processes: [ServerProcess?]
    private var turn = 0
    private(set) var retries = 0

    init(_ processes: [ServerProcess]) { self.processes = processes }

    /// The `index`th live server's client (in turn among the live ones).
    func client(_ index: Int) -> ForwardingClient {
        let live = processes.compactMap { $0 }
        return live[index % live.count].client
    }

    func kill(_ index: Int) {
        processes[index]?.kill()
        processes[index] = nil
    }

    func replace(_ index: Int, with process: ServerProcess) { processes[index] = process }

    func killAll() {
        for index in processes.indices { kill(index) }
    }

    private func next() -> ForwardingClient {
        turn += 1
        return client(turn)
    }

    private func retried() { retries += 1 }

    /// Sends the transfer with `key` to one server after another until a definite answer: 201 or a 4xx other than
    /// 409. A lost answer (no connection, a 5xx, 409) is retried with the same key and body; gives up after 30 s.
    nonisolated func sendUntilDefinite(
        _ body: [String: any Sendable], token: String, key: String, address: String
    ) async throws -> Reply {
        let giveUp = ContinuousClock.now + .seconds(30)
        while true {
            let client = await next().from(address)
            if let reply = try? await client.send(.post, "/v1/transfers", json: body, token: token, idempotencyKey: key),
               reply.status == .created || ((400..<500).contains(reply.status.code) && reply.status.code != 409) {
                return reply
            }
            await retried()
            guard ContinuousClock.now < giveUp else { throw TestFailure("no definite answer for \(key) in 30 s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The transfers clients saw acknowledged, and answers a live server should not give.
actor Acknowledged {
    struct Transfer: Sendable {
        var id: String
        var payer: Int
        var payee: Int
        var amount: Int64
    }

    private(set) var transfers: [Transfer] = []
    private(set) var surprises: [String] = []

    func add(id: String, payer: Int, payee: Int, amount: Int64) {
        transfers.append(Transfer(id: id, payer: payer, payee: payee, amount: amount))
    }

    func unexpected(_ what: String) { surprises.append(what) }
}
