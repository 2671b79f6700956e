import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import OpenAPIRuntime
import SkiffCore
import SkiffServer
import Synchronization
import Testing
@testable import Skiff

/// A real Skiff server on a free loopback port, in a temporary folder, with the demo account; over TLS with `tls`.
final class LiveServer: Sendable {
    let instance: SkiffServerInstance
    let folder: URL

    static func start(tls: TLSFiles? = nil) async throws -> LiveServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let instance = try await SkiffServerInstance.start(SkiffServerConfiguration(
            host: "127.0.0.1", port: 0, tls: tls,
            database: .sqlite(path: folder.appendingPathComponent("skiff.sqlite").path),
            smsOutboxPath: folder.appendingPathComponent("sms-outbox.jsonl").path,
            bcryptCost: 4, logger: Logger(label: "test.server", factory: { _ in SwiftLogNoOpLogHandler() })
        ))
        return LiveServer(instance: instance, folder: folder)
    }

    private init(instance: SkiffServerInstance, folder: URL) {
        self.instance = instance
        self.folder = folder
    }

    var outbox: DevelopmentOutbox { DevelopmentOutbox(file: folder.appendingPathComponent("sms-outbox.jsonl")) }

    func stop() async {
        await instance.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Lets an add-card request reach the server, then loses the answer as a timeout would, the first `count` times.
final class LoseAnswers: ClientMiddleware, Sendable {
    private let remaining: Mutex<Int>
    init(count: Int) { remaining = Mutex(count) }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await next(request, body, baseURL)
        guard operationID == "addCard" else { return answer }
        let lose = remaining.withLock { count in
            defer { count -= 1 }
            return count > 0
        }
        if lose { throw HTTPClientError.deadlineExceeded }
        return answer
    }
}

/// Counts calls of the 401 hook.
final class Counter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func increment() { value.withLock { $0 += 1 } }
}

@Suite("Network workers against a real server", .serialized)
struct LiveWorkersTests {
    let demoPhone = try! PhoneNumber.parse(
        countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber
    )

    func client(_ server: LiveServer, middlewares: [any ClientMiddleware] = [], hook: Counter = Counter()) -> APIClient {
        APIClient(
            baseURL: server.instance.baseURL, tokens: SessionTokenBox(), timeout: .seconds(10), middlewares: middlewares,
            onUnauthorised: { hook.increment() }
        )
    }

    @Test("log in, read the summary, page and search transactions")
    func loginAndAccount() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        let session = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        #expect(session.user.fullName == "Alex Rivera")
        api.tokens.set(session.token)
        let account = AccountWorker(api: api)
        let summary = try await account.summary()
        #expect(summary.user.id == session.user.id)
        #expect(summary.balance.currency == "USD")
        let first = try await account.transactions(limit: 50, cursor: nil, query: nil)
        #expect(first.items.count == 50)
        let second = try await account.transactions(limit: 50, cursor: first.nextCursor, query: nil)
        #expect(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
        #expect(first.items.map(\.createdAt) == first.items.map(\.createdAt).sorted(by: >))
        let coffee = try await account.transactions(limit: 50, cursor: nil, query: "coffee")
        #expect(!coffee.items.isEmpty)
        #expect(coffee.items.allSatisfy { ($0.merchant + $0.category).lowercased().contains("coffee") })
        await api.shutdown()
        await server.stop()
    }

    @Test("spending: this month's categories, largest first, with totals that add up, and the same days of last month's")
    func spending() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        let session = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        api.tokens.set(session.token)
        let spending = try await AccountWorker(api: api).spending()
        #expect(spending.month.count == 7)
        let amounts = spending.categories.map(\.amount.amountMinor)
        #expect(amounts == amounts.sorted(by: >))
        #expect(amounts.allSatisfy { $0 > 0 })
        // The demo's transactions end now, so this month may still be empty in its first hours.
        #expect(spending.totals == (amounts.isEmpty ? [] : [Money(amountMinor: amounts.reduce(0, +), currency: "USD")]))
        #expect(spending.previousDaysTotals.map(\.currency) == ["USD"])
        // The same days of last month: its 1st to today's day of the month (UTC), or all of it when it is shorter.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let today = utc.component(.day, from: Date())
        #expect(spending.previousDays.lowerBound == 1)
        #expect(spending.previousDays.upperBound == today || (28..<today).contains(spending.previousDays.upperBound))
        await api.shutdown()
        await server.stop()
    }

    @Test("transfers: a lookup, a refusal on its field, a step-up, a send, and the same key again answers the same transfer")
    func transfers() async throws {
        let server = try await LiveServer.start()
        // Jordan, seeded into the running server's database as `skiff-server seed` would.
        _ = try await SkiffServerSeeder.seed(
            SkiffServerConfiguration(
                host: "127.0.0.1", port: 0, database: .sqlite(path: server.folder.appendingPathComponent("skiff.sqlite").path),
                smsOutboxPath: server.folder.appendingPathComponent("sms-outbox.jsonl").path, bcryptCost: 4,
                logger: Logger(label: "test.seed", factory: { _ in SwiftLogNoOpLogHandler() })
            ),
            countryCode: "+1", phoneNumber: "202 555 0111", fullName: "Jordan Rivera", password: "river-stones-8", transactions: 0
        )
        let api = client(server)
        let session = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        api.tokens.set(session.token)
        let worker = TransferWorker(api: api)
        let jordan = try await worker.findRecipient(phone: try PhoneNumber.parse(countryCode: "+1", number: "202 555 0111"))
        #expect(jordan.displayName == "Jordan R.")
        #expect(jordan.fullName == "Jordan Rivera")
        let nobody = try PhoneNumber.parse(countryCode: "+1", number: "202 555 0100")
        await #expect(throws: NetworkError.validation(
            detail: "No Skiff account has this phone number.",
            fields: [FieldError(field: "phoneNumber", message: "No Skiff account has this number.")]
        )) { try await worker.findRecipient(phone: nobody) }

        let lunch = TransferOrder(recipientID: jordan.id, amount: Money(amountMinor: 1_250, currency: "USD"), note: "Lunch", stepUp: nil)
        let sent = try await worker.send(lunch, idempotencyKey: "live-lunch")
        #expect(sent.reference.hasPrefix("SKF-"))
        #expect(sent.recipient.id == jordan.id && sent.recipient.displayName == "Jordan R." && sent.amount == lunch.amount && sent.note == "Lunch" && !sent.replayed)
        let again = try await worker.send(lunch, idempotencyKey: "live-lunch")
        #expect(again.id == sent.id && again.replayed)

        var rent = TransferOrder(recipientID: jordan.id, amount: Money(amountMinor: 15_000, currency: "USD"), note: nil, stepUp: nil)
        await #expect(throws: NetworkError.stepUpRequired) { try await worker.send(rent, idempotencyKey: "live-rent") }
        await #expect { try await worker.stepUp(password: "not-the-password", recipientID: jordan.id, amount: rent.amount) } throws: { error in
            guard case NetworkError.validation(_, let fields) = error else { return false }
            return fields.map(\.field) == ["password"]
        }
        // Issue 45: a proof is for one payee and one amount.
        var other = rent
        other.amount = Money(amountMinor: 15_001, currency: "USD")
        other.stepUp = try await worker.stepUp(password: DemoCredentials.demo.password, recipientID: jordan.id, amount: rent.amount)
        await #expect(throws: NetworkError.stepUpRequired) { try await worker.send(other, idempotencyKey: "live-other") }
        rent.stepUp = try await worker.stepUp(password: DemoCredentials.demo.password, recipientID: jordan.id, amount: rent.amount)
        let paid = try await worker.send(rent, idempotencyKey: "live-rent")
        #expect(paid.amount.amountMinor == 15_000)
        #expect(try await worker.send(rent, idempotencyKey: "live-rent").id == paid.id, "the spent proof still answers its own retry")
        await api.shutdown()
        await server.stop()
    }

    @Test("a wrong password is .unauthorised and does not fire the session hook")
    func wrongPassword() async throws {
        let server = try await LiveServer.start()
        let hook = Counter()
        let api = client(server, hook: hook)
        await #expect(throws: NetworkError.unauthorised) {
            try await AuthWorker(api: api).login(phone: demoPhone, password: "not-the-password")
        }
        #expect(hook.count == 0)
        await api.shutdown()
        await server.stop()
    }

    @Test("after logout the token answers 401 and the session hook fires")
    func revoked() async throws {
        let server = try await LiveServer.start()
        let hook = Counter()
        let api = client(server, hook: hook)
        let auth = AuthWorker(api: api)
        api.tokens.set(try await auth.login(phone: demoPhone, password: DemoCredentials.demo.password).token)
        try await auth.logout()
        await #expect(throws: NetworkError.unauthorised) { try await AccountWorker(api: api).summary() }
        #expect(hook.count == 1)
        await api.shutdown()
        await server.stop()
    }

    @Test("after lock the token answers .locked and the lock hook fires, not the 401 one; unlock opens it again")
    func locked() async throws {
        let server = try await LiveServer.start()
        let expired = Counter(), locked = Counter()
        let api = APIClient(
            baseURL: server.instance.baseURL, tokens: SessionTokenBox(), timeout: .seconds(10), middlewares: [],
            onUnauthorised: { expired.increment() }, onLocked: { locked.increment() }
        )
        let auth = AuthWorker(api: api)
        api.tokens.set(try await auth.login(phone: demoPhone, password: DemoCredentials.demo.password).token)
        try await auth.lock()
        await #expect(throws: NetworkError.locked) { try await AccountWorker(api: api).summary() }
        await #expect(throws: NetworkError.locked) { try await CardWorker(api: api).cards() }
        #expect(locked.count == 2)
        #expect(expired.count == 0)
        try await auth.unlock(password: DemoCredentials.demo.password)
        #expect(try await AccountWorker(api: api).summary().user.fullName == "Alex Rivera")
        await api.shutdown()
        await server.stop()
    }

    @Test("a refused password comes back as a validation error on its field")
    func validation() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        let phone = try PhoneNumber.parse(countryCode: "+1", number: "202 555 0188")
        do {
            _ = try await AuthWorker(api: api).register(
                Registration(phone: phone, fullName: "Sam Lee", password: "password"), idempotencyKey: UUID().uuidString
            )
            Issue.record("a common password was accepted")
        } catch {
            guard case .validation(_, let fields) = error else {
                Issue.record("expected .validation, got \(error)")
                return
            }
            #expect(fields.contains { $0.field == "password" })
        }
        await api.shutdown()
        await server.stop()
    }

    @Test("a refusal comes back under the app's names for the fields, never the API's: amount, card, securityCode")
    func domainFieldNames() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        api.tokens.set(try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password).token)
        /// The names of the fields `call` was refused on.
        func refused(_ call: () async throws(NetworkError) -> Void) async -> [String] {
            do throws(NetworkError) {
                try await call()
                return []
            } catch {
                guard case .validation(_, let fields) = error else { return ["not a validation: \(error)"] }
                return fields.map(\.field)
            }
        }
        let transfers = TransferWorker(api: api)
        let nothing = Money(amountMinor: 0, currency: "USD")
        #expect(await refused { () async throws(NetworkError) in
            _ = try await transfers.send(TransferOrder(recipientID: "u_nobody", amount: nothing, note: nil, stepUp: nil), idempotencyKey: UUID().uuidString)
        }.contains("amount"))
        let card = try await CardWorker(api: api).cards()[0]
        #expect(await refused { () async throws(NetworkError) in
            _ = try await transfers.topUp(TopUpOrder(card: card, amount: nothing), idempotencyKey: UUID().uuidString)
        } == ["amount"])
        var unknown = card
        unknown.id = "c_nobody"
        #expect(await refused { () async throws(NetworkError) in
            _ = try await transfers.topUp(TopUpOrder(card: unknown, amount: Money(amountMinor: 500, currency: "USD")), idempotencyKey: UUID().uuidString)
        } == ["card"])
        let badCode = NewCard(
            number: try CardNumber("4242 4242 4242 4242"), expiry: try CardExpiry(month: 4, year: 2029, now: Date()),
            securityCode: "12", holderName: "ALEX RIVERA"
        )
        #expect(await refused { () async throws(NetworkError) in
            _ = try await CardWorker(api: api).add(badCode, idempotencyKey: UUID().uuidString)
        } == ["securityCode"])
        await api.shutdown()
        await server.stop()
    }

    @Test("an add retried after a lost answer sends the same key, and exactly one card exists")
    func addCardRetry() async throws {
        let server = try await LiveServer.start()
        let api = client(server, middlewares: [LoseAnswers(count: 1)])
        let session = try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        api.tokens.set(session.token)
        let cards = CardWorker(api: api)
        let card = NewCard(
            number: try CardNumber("4242 4242 4242 4242"), expiry: try CardExpiry(month: 4, year: 2029, now: Date()),
            securityCode: "123", holderName: "ALEX RIVERA"
        )
        await #expect(throws: NetworkError.timeout) { try await cards.add(card, idempotencyKey: "retry-key-1") }
        let added = try await cards.add(card, idempotencyKey: "retry-key-1")
        #expect(added.last4 == "4242")
        #expect(added.brand == .visa)
        let all = try await cards.cards()
        #expect(all.filter { $0.kind == .external }.count == 1)
        let duplicate = await Result.capture { () async throws(NetworkError) in
            try await cards.add(card, idempotencyKey: "another-key")
        }
        guard case .failure(.conflict) = duplicate else {
            Issue.record("the same number again should be refused as a conflict, got \(duplicate)")
            return
        }
        await api.shutdown()
        await server.stop()
    }

    @Test("activation: a code to the phone, then the card is active")
    func activation() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        api.tokens.set(try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password).token)
        let cards = CardWorker(api: api)
        let issued = try #require(try await cards.cards().first { $0.kind == .issued })
        let before = Date().addingTimeInterval(-2)
        let challenge = try await cards.requestActivation(cardID: issued.id, last4: issued.last4)
        let code = try #require(server.outbox.latestCode(to: demoPhone.e164, purpose: .cardActivation, since: before))
        let active = try await cards.activate(cardID: issued.id, last4: issued.last4, verificationId: challenge.verificationId, code: code)
        #expect(active.status == .active)
        let notifications = try await NotificationsWorker(api: api).notifications()
        if let first = notifications.first {
            try await NotificationsWorker(api: api).markRead(id: first.id)
        }
        await api.shutdown()
        await server.stop()
    }

    @Test("freeze, unfreeze and remove a card; a frozen card cannot be activated and the server says why")
    func freezeAndRemove() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        api.tokens.set(try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password).token)
        let cards = CardWorker(api: api)
        let issued = try #require(try await cards.cards().first { $0.kind == .issued })
        let frozen = try await cards.setFrozen(true, cardID: issued.id)
        #expect(frozen.frozen)
        #expect(try await cards.cards().first { $0.id == issued.id }?.frozen == true)
        let refused = await Result.capture { () async throws(NetworkError) in try await cards.requestActivation(cardID: issued.id, last4: issued.last4) }
        #expect(refused == .failure(.validation(detail: "Unfreeze the card before activating it.", fields: [])))
        #expect(try await cards.setFrozen(false, cardID: issued.id).frozen == false)
        let added = try await cards.add(
            NewCard(
                number: try CardNumber("4242 4242 4242 4242"), expiry: try CardExpiry(month: 4, year: 2029, now: Date()),
                securityCode: "123", holderName: "ALEX RIVERA"
            ),
            idempotencyKey: "freeze-remove-1"
        )
        try await cards.remove(cardID: added.id)
        #expect(try await cards.cards().map(\.id) == [issued.id])
        await api.shutdown()
        await server.stop()
    }

    @Test("five wrong passwords lock the number: .throttled with the seconds to wait")
    func throttled() async throws {
        let server = try await LiveServer.start()
        let api = client(server)
        let auth = AuthWorker(api: api)
        for _ in 0..<5 {
            await #expect(throws: NetworkError.unauthorised) { try await auth.login(phone: demoPhone, password: "not-the-password") }
        }
        let locked = await Result.capture { () async throws(NetworkError) in
            try await auth.login(phone: demoPhone, password: DemoCredentials.demo.password)
        }
        guard case .failure(.throttled(let seconds)) = locked else {
            Issue.record("expected .throttled, got \(locked)")
            await api.shutdown()
            await server.stop()
            return
        }
        #expect(seconds > 0 && seconds <= 15 * 60)
        await api.shutdown()
        await server.stop()
    }

    @Test("a request made while the built-in server is still starting waits for it, then reaches it")
    func endpointStarting() async throws {
        let server = try await LiveServer.start()
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let endpoint = ServerEndpoint {
            for await _ in opened { break }
            return server.instance.baseURL
        }
        let api = APIClient(
            endpoint: endpoint, trust: .system, tokens: SessionTokenBox(), timeout: .seconds(10), onUnauthorised: {}
        )
        let login = Task { try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password) }
        open.yield()
        let session = try await login.value
        #expect(session.user.fullName == "Alex Rivera")
        await api.shutdown()
        await server.stop()
    }

    @Test("a built-in server that could not start is .serverNotStarted with its reason, on every request")
    func endpointFailed() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "file is not a database" } }
        let api = APIClient(
            endpoint: ServerEndpoint { throw Broken() }, trust: .system, tokens: SessionTokenBox(), timeout: .seconds(5),
            onUnauthorised: {}
        )
        for _ in 0..<2 {
            await #expect(throws: NetworkError.serverNotStarted(reason: "file is not a database")) {
                try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
            }
        }
        await api.shutdown()
    }

    @Test("nothing listening is .unreachable")
    func unreachable() async throws {
        let api = APIClient(
            baseURL: URL(string: "http://127.0.0.1:9")!, tokens: SessionTokenBox(), timeout: .seconds(5), middlewares: [],
            onUnauthorised: {}
        )
        await #expect(throws: NetworkError.unreachable) {
            try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        }
        await api.shutdown()
    }

    @Test("a server that never answers is .timeout")
    func timeout() async throws {
        // A socket that listens but never accepts: the connection is made, the answer never comes.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 8) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let api = APIClient(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, tokens: SessionTokenBox(), timeout: .milliseconds(300),
            middlewares: [], onUnauthorised: {}
        )
        await #expect(throws: NetworkError.timeout) {
            try await AuthWorker(api: api).login(phone: demoPhone, password: DemoCredentials.demo.password)
        }
        await api.shutdown()
    }
}
