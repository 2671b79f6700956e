import Foundation
import SkiffCore
import Synchronization
import Testing
@testable import Skiff

@Suite("ReconnectPolicy")
struct ReconnectPolicyTests {
    @Test("after failures: 1 s doubling to 30 s; a connection starts over; a server's hint is kept within 0.5-60 s")
    func waits() {
        var policy = ReconnectPolicy()
        policy.random = { 0 }
        let waits = (0..<8).map { _ in policy.afterFailure() }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        policy.connected()
        #expect(policy.afterFailure() == .seconds(1))
        #expect(policy.afterEnd() == .seconds(3))
        policy.hint(milliseconds: 10)
        #expect(policy.afterEnd() == .milliseconds(500))
        policy.hint(milliseconds: 3_600_000)
        #expect(policy.afterEnd() == .seconds(60))
    }

    @Test("the random part only ever shortens a wait, by at most a fifth")
    func jitter() {
        var policy = ReconnectPolicy()
        policy.random = { 0.999 }
        let wait = policy.afterFailure()
        #expect(wait < .seconds(1) && wait > .milliseconds(800))
    }
}

/// The updates a stream handed on so far.
final class UpdateLog: Sendable {
    private let updates = Mutex<[LiveUpdate]>([])
    var all: [LiveUpdate] { updates.withLock { $0 } }
    func append(_ update: LiveUpdate) { updates.withLock { $0.append(update) } }

    /// Polls (up to 30 s) until `condition` holds.
    func wait(_ condition: @escaping ([LiveUpdate]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

@Suite("LiveEventsWorker against a real server", .serialized)
struct LiveEventsWorkerTests {
    @Test("online once connected; an unread count read elsewhere arrives; the server gone is offline")
    func streamAndOffline() async throws {
        let server = try await LiveServer.start()
        let api = APIClient(
            baseURL: server.instance.baseURL, tokens: SessionTokenBox(), timeout: .seconds(90), middlewares: [],
            onUnauthorised: {}
        )
        let phone = try PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)
        let session = try await AuthWorker(api: api).login(phone: phone, password: DemoCredentials.demo.password)
        api.tokens.set(session.token)
        var policy = ReconnectPolicy()
        policy.random = { 0 }
        let worker = LiveEventsWorker(api: api, policy: { [policy] in policy })
        let log = UpdateLog()
        let reading = Task {
            for await update in worker.updates() { log.append(update) }
        }
        #expect(try await log.wait { $0.first == .online })
        let notifications = NotificationsWorker(api: api)
        let unread = try await notifications.notifications().filter { !$0.read }
        try await notifications.markRead(id: try #require(unread.first).id)
        #expect(try await log.wait { $0.contains(.event(.unreadChanged(unread.count - 1))) })
        await server.stop()
        #expect(try await log.wait { $0.last == .offline })
        #expect(log.all.filter { $0 == .offline }.count == 1)
        reading.cancel()
        await api.shutdown()
    }
}
