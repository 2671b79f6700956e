import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
import Testing
@testable import SkiffServer

/// One `GET /v1/events` read as it arrives, over a real socket: the events so far, polled with a generous deadline.
final class EventReader: Sendable {
    struct Event: Sendable, Equatable {
        var id: Int64?
        var name: String?
        var data: [String: String]
        var retry: Int64?
    }

    private let received = NIOLockedValueBox<[Event]>([])
    private let ended = NIOLockedValueBox(false)
    private let reading: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)
    let status: HTTPResponseStatus

    /// Opens the stream (waiting, with `Accept: text/event-stream`, unless `waits` is false).
    init(_ client: InstanceClient, token: String, lastEventID: String? = nil, waits: Bool = true) async throws {
        var request = HTTPClientRequest(url: client.baseURL.absoluteString + "/v1/events")
        request.headers.add(name: "Accept", value: waits ? "text/event-stream" : "*/*")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        status = response.status
        let received = self.received, ended = self.ended
        let body = response.body
        reading.withLockedValue {
            $0 = Task {
                let bytes = body.map { ArraySlice($0.readableBytesView) }
                do {
                    for try await event in bytes.asDecodedServerSentEvents() {
                        let fields = event.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
                        received.withLockedValue {
                            $0.append(Event(
                                id: event.id.flatMap { Int64($0) }, name: event.event,
                                data: fields.mapValues { value in
                                    if let nested = value as? [String: Any] {
                                        return nested.keys.sorted().map { "\($0)=\(nested[$0] ?? "")" }.joined(separator: ",")
                                    }
                                    return "\(value)"
                                },
                                retry: event.retry
                            ))
                        }
                    }
                } catch {}
                ended.withLockedValue { $0 = true }
            }
        }
    }

    var events: [Event] { received.withLockedValue { $0 } }
    /// The events with a name (not the `retry:` hints).
    var named: [Event] { events.filter { $0.name != nil } }
    var hasEnded: Bool { ended.withLockedValue { $0 } }

    /// Waits (polling, up to 30 s) until `condition` holds of what was received; fails the test otherwise.
    func wait(
        for what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping ([Event]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition(events) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("No \(what) within 30 s; received \(events)", sourceLocation: sourceLocation)
        throw TestFailure("waited for \(what)")
    }

    func waitForEnd(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !hasEnded { try await Task.sleep(for: .milliseconds(50)) }
        #expect(hasEnded, "the stream did not end", sourceLocation: sourceLocation)
    }

    func close() {
        reading.withLockedValue { $0?.cancel() }
    }
}

/// Instances of the server on one store (SQLite: one, the store being in-process; PostgreSQL: one or two).
struct EventInstances {
    let server: TestServer
    let clients: [InstanceClient]

    static func run(
        _ store: TestStore, instances: Int = 1, limits: (inout SkiffServerLimits) -> Void = { _ in },
        _ body: (EventInstances) async throws -> Void
    ) async throws {
        var server = try TestServer()
        defer { server.remove() }
        server.configuration.limits.authRequestBurst = 1_000
        limits(&server.configuration.limits)
        func start(_ configuration: SkiffServerConfiguration) async throws {
            var started: [SkiffServerInstance] = []
            do {
                for _ in 0..<instances { started.append(try await SkiffServerInstance.start(configuration)) }
                try await body(EventInstances(server: server, clients: started.map { InstanceClient(baseURL: $0.baseURL) }))
            } catch {
                for instance in started { await instance.stop() }
                throw error
            }
            for instance in started { await instance.stop() }
        }
        switch store {
        case .sqlite:
            try await start(server.configuration)
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                server.configuration.database = .postgres(url: databaseURL)
                server.configuration.fingerprintKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()
                try await start(server.configuration)
            }
        }
    }

    var a: InstanceClient { clients[0] }
    var b: InstanceClient { clients[clients.count - 1] }

    /// Registers `number` (+1) as `name` and answers its token and user id.
    func register(number: String, name: String) async throws -> (token: String, id: String) {
        let started = try await a.send(
            .post, "/v1/auth/register",
            json: ["countryCode": "+1", "phoneNumber": number, "fullName": name, "password": Seeds.password],
            idempotencyKey: UUID().uuidString
        )
        guard let verificationID = started.json["verificationId"] as? String else {
            throw TestFailure("register answered \(started.status): \(started.body)")
        }
        let code = try server.lastCode(to: "+1" + number)
        let verified = try await a.send(.post, "/v1/auth/register/verify", json: ["verificationId": verificationID, "code": code])
        guard let token = verified.json["token"] as? String, let user = verified.json["user"] as? [String: Any],
              let id = user["id"] as? String
        else { throw TestFailure("verify answered \(verified.status): \(verified.body)") }
        server.clock.advance(by: 31)
        return (token, id)
    }

    func transfer(from token: String, to id: String, amountMinor: Int, via client: InstanceClient? = nil) async throws -> Reply {
        let reply = try await (client ?? a).send(
            .post, "/v1/transfers", json: ["recipientId": id, "amountMinor": amountMinor, "currency": "USD", "note": "Lunch"],
            token: token, idempotencyKey: UUID().uuidString
        )
        #expect(reply.status == .created, "\(reply.body)")
        return reply
    }
}

@Suite("GET /v1/events")
struct EventRoutesTests {
    @Test("A transfer reaches the payee's open stream (money in from the sender's short name, the new balance) and the payer's, in id order; a third user's stream gets nothing", arguments: TestStore.allCases)
    func transferReachesBothStreams(_ store: TestStore) async throws {
        try await EventInstances.run(store) { servers in
            let alex = try await servers.register(number: "2025550140", name: "Alex Rivera")
            let jordan = try await servers.register(number: "2025550141", name: "Jordan Reyes")
            let sam = try await servers.register(number: "2025550142", name: "Sam Carter")
            let toJordan = try await EventReader(servers.a, token: jordan.token)
            let toAlex = try await EventReader(servers.a, token: alex.token)
            let toSam = try await EventReader(servers.a, token: sam.token)
            #expect(toJordan.status == .ok)
            try await toJordan.wait(for: "the retry hint") { $0.first?.retry == 3000 }
            let sent = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 1250)
            try await toJordan.wait(for: "money received") { $0.contains { $0.name == "money-received" } }
            try await toJordan.wait(for: "the balance") { $0.contains { $0.name == "balance-changed" } }
            let received = try #require(toJordan.named.first { $0.name == "money-received" })
            #expect(received.data["amountMinor"] == "1250")
            #expect(received.data["counterparty"] == "Alex R.")
            #expect(received.data["reference"] == sent.json["reference"] as? String)
            #expect(received.data["transferKind"] == "transfer")
            #expect(toJordan.named.first { $0.name == "balance-changed" }?.data["balance"] == "amountMinor=101250,currency=USD")
            try await toAlex.wait(for: "money sent") { $0.contains { $0.name == "money-sent" } }
            #expect(toAlex.named.first { $0.name == "money-sent" }?.data["amountMinor"] == "-1250")
            #expect(toAlex.named.first { $0.name == "balance-changed" }?.data["balance"] == "amountMinor=98750,currency=USD")
            // Ids grow along each stream.
            for reader in [toJordan, toAlex] {
                let ids = reader.named.compactMap(\.id)
                #expect(ids == ids.sorted() && Set(ids).count == ids.count)
            }
            #expect(toSam.named.isEmpty)
            for reader in [toJordan, toAlex, toSam] { reader.close() }
        }
    }

    @Test("A reconnect with Last-Event-ID gets what came after it, in order; one without waiting ends after the catch-up", arguments: TestStore.allCases)
    func catchUp(_ store: TestStore) async throws {
        try await EventInstances.run(store) { servers in
            let alex = try await servers.register(number: "2025550143", name: "Alex Rivera")
            let jordan = try await servers.register(number: "2025550144", name: "Jordan Reyes")
            let live = try await EventReader(servers.a, token: jordan.token)
            try await live.wait(for: "the retry hint") { !$0.isEmpty }
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 100)
            try await live.wait(for: "the first transfer") { $0.contains { $0.name == "money-received" } }
            let seen = try #require(live.named.last?.id)
            live.close()
            // While away: two more transfers and a notification read.
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 200)
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 300)

            let caughtUp = try await EventReader(servers.a, token: jordan.token, lastEventID: String(seen), waits: false)
            try await caughtUp.waitForEnd()
            let missed = caughtUp.named
            #expect(missed.filter { $0.name == "money-received" }.map { $0.data["amountMinor"] } == ["200", "300"])
            #expect(missed.allSatisfy { ($0.id ?? 0) > seen })
            let ids = missed.compactMap(\.id)
            #expect(ids == ids.sorted())
            #expect(missed.last { $0.name == "balance-changed" }?.data["balance"] == "amountMinor=100600,currency=USD")

            // Without Last-Event-ID and without waiting: only the hint, then the end (what the fuzzer sees).
            let bare = try await EventReader(servers.a, token: jordan.token, waits: false)
            try await bare.waitForEnd()
            #expect(bare.events.map(\.retry) == [3000])

            // Waiting, with Last-Event-ID: the catch-up first, then live.
            let resumed = try await EventReader(servers.a, token: jordan.token, lastEventID: String(seen))
            try await resumed.wait(for: "the catch-up") { $0.filter { $0.name == "money-received" }.count == 2 }
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 400)
            try await resumed.wait(for: "the live transfer") { $0.filter { $0.name == "money-received" }.count == 3 }
            resumed.close()
        }
    }

    /// Issue 44: a wallet locked before any event came had no id to come back from, and missed the money that came
    /// while it was locked.
    @Test("A stream opened without Last-Event-ID says where it starts; coming back from there after a transfer made while no stream was open brings that transfer", arguments: TestStore.allCases)
    func startSaysWhere(_ store: TestStore) async throws {
        try await EventInstances.run(store) { servers in
            let alex = try await servers.register(number: "2025550145", name: "Alex Rivera")
            let jordan = try await servers.register(number: "2025550146", name: "Jordan Reyes")
            let first = try await EventReader(servers.a, token: jordan.token)
            try await first.wait(for: "where the stream starts") { $0.contains { $0.id != nil && $0.name == nil } }
            #expect(first.events.first?.retry == 3000, "the retry hint comes first")
            #expect(first.named.isEmpty, "the start is an id, not an event")
            let start = try #require(first.events.compactMap(\.id).last)
            first.close()
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 725)
            let back = try await EventReader(servers.a, token: jordan.token, lastEventID: String(start))
            try await back.wait(for: "the transfer made while away") { $0.contains { $0.name == "money-received" } }
            #expect(back.named.first { $0.name == "money-received" }?.data["amountMinor"] == "725")
            #expect(!back.events.contains { $0.id == start }, "a stream resumed from an id does not say it again")
            back.close()
        }
    }

    @Test("Locking a session ends its stream with session-locked; the user's other session keeps streaming", arguments: TestStore.allCases)
    func lockEndsTheStream(_ store: TestStore) async throws {
        try await EventInstances.run(store) { servers in
            let jordan = try await servers.register(number: "2025550145", name: "Jordan Reyes")
            let other = try await servers.a.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550145", "password": Seeds.password]
            )
            let otherToken = try #require(other.json["token"] as? String)
            let locked = try await EventReader(servers.a, token: jordan.token)
            let open = try await EventReader(servers.a, token: otherToken)
            try await locked.wait(for: "the retry hint") { !$0.isEmpty }
            try await open.wait(for: "the retry hint") { !$0.isEmpty }
            #expect(try await servers.a.send(.post, "/v1/session/lock", token: jordan.token).status == .noContent)
            try await locked.wait(for: "session-locked") { $0.last?.name == "session-locked" }
            #expect(locked.named.last?.data["status"] == "423")
            try await locked.waitForEnd()
            #expect(!open.hasEnded)
            #expect(open.named.isEmpty)
            // A locked session's stream is refused as every other request is.
            let refused = try await servers.a.send(.get, "/v1/events", token: jordan.token)
            #expect(refused.status.code == 423)
            open.close()
        }
    }

    @Test(
        "A stream opened after an unlock, from an id before the lock, does not replay that lock: it streams what came since",
        arguments: TestStore.allCases
    )
    func unlockedLockIsNotReplayed(_ store: TestStore) async throws {
        try await EventInstances.run(store) { servers in
            let alex = try await servers.register(number: "2025550151", name: "Alex Rivera")
            let jordan = try await servers.register(number: "2025550152", name: "Jordan Reyes")
            let first = try await EventReader(servers.a, token: jordan.token)
            try await first.wait(for: "the retry hint") { !$0.isEmpty }
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 100)
            try await first.wait(for: "money-received") { $0.contains { $0.name == "money-received" } }
            // The app stops reading at the lock it makes itself, so the last id it saw is from before the lock.
            let lastSeen = try #require(first.named.last?.id)
            first.close()
            #expect(try await servers.a.send(.post, "/v1/session/lock", token: jordan.token).status == .noContent)
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 300)
            let unlock = try await servers.a.send(.post, "/v1/session/unlock", json: ["password": Seeds.password], token: jordan.token)
            #expect(unlock.status.code < 300)
            let resumed = try await EventReader(servers.a, token: jordan.token, lastEventID: String(lastSeen))
            try await resumed.wait(for: "the $3.00 received while locked") {
                $0.contains { $0.name == "money-received" && $0.data["amountMinor"] == "300" }
            }
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 500)
            try await resumed.wait(for: "a transfer after the unlock") {
                $0.contains { $0.name == "money-received" && $0.data["amountMinor"] == "500" }
            }
            #expect(!resumed.named.contains { $0.name == "session-locked" })
            #expect(!resumed.hasEnded)
            // A lock made now still ends the stream.
            #expect(try await servers.a.send(.post, "/v1/session/lock", token: jordan.token).status == .noContent)
            try await resumed.wait(for: "session-locked") { $0.last?.name == "session-locked" }
            try await resumed.waitForEnd()
        }
    }

    @Test("A stream's session left idle past its lock time is locked at a keep-alive, and the stream ends saying so")
    func idleLockAtKeepAlive() async throws {
        try await EventInstances.run(.sqlite, limits: { $0.eventKeepAliveInterval = 0.2 }) { servers in
            let jordan = try await servers.register(number: "2025550146", name: "Jordan Reyes")
            let reader = try await EventReader(servers.a, token: jordan.token)
            try await reader.wait(for: "the retry hint") { !$0.isEmpty }
            servers.server.clock.advance(by: 6 * 60)
            try await reader.wait(for: "session-locked") { $0.last?.name == "session-locked" }
            try await reader.waitForEnd()
        }
    }

    @Test("A user may hold only so many streams: past them, 429 with Retry-After")
    func streamsPerUser() async throws {
        try await EventInstances.run(.sqlite, limits: { $0.eventStreamsPerUser = 2 }) { servers in
            let jordan = try await servers.register(number: "2025550147", name: "Jordan Reyes")
            let first = try await EventReader(servers.a, token: jordan.token)
            let second = try await EventReader(servers.a, token: jordan.token)
            let third = try await servers.a.send(.get, "/v1/events", token: jordan.token)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[HTTPField.Name("Retry-After")!] != nil)
            first.close()
            second.close()
        }
    }

    @Test("Last-Event-ID other than digits is refused with 400")
    func badLastEventID() async throws {
        try await EventInstances.run(.sqlite) { servers in
            let jordan = try await servers.register(number: "2025550148", name: "Jordan Reyes")
            var request = HTTPClientRequest(url: servers.a.baseURL.absoluteString + "/v1/events")
            request.headers.add(name: "Authorization", value: "Bearer \(jordan.token)")
            request.headers.add(name: "Last-Event-ID", value: "12a")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .badRequest)
        }
    }

    @Test("Across instances: a stream open on B sees a transfer made on A, and a card frozen on A")
    func acrossInstances() async throws {
        try await EventInstances.run(.postgres, instances: 2) { servers in
            let alex = try await servers.register(number: "2025550149", name: "Alex Rivera")
            let jordan = try await servers.register(number: "2025550150", name: "Jordan Reyes")
            let onB = try await EventReader(servers.b, token: jordan.token)
            try await onB.wait(for: "the retry hint") { !$0.isEmpty }
            _ = try await servers.transfer(from: alex.token, to: jordan.id, amountMinor: 1250, via: servers.a)
            try await onB.wait(for: "money received on B") { $0.contains { $0.name == "money-received" } }
            #expect(onB.named.first { $0.name == "money-received" }?.data["counterparty"] == "Alex R.")
            let cards = try await servers.a.send(.get, "/v1/cards", token: jordan.token)
            let cardID = try #require(cards.array.first?["id"] as? String)
            #expect(try await servers.a.send(.put, "/v1/cards/\(cardID)/freeze", token: jordan.token).status == .ok)
            try await onB.wait(for: "card-changed on B") { $0.contains { $0.name == "card-changed" && $0.data["cardId"] == cardID } }
            onB.close()
        }
    }
}
