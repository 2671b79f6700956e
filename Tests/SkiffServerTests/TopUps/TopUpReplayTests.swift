import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

/// The same Idempotency-Key again, whatever its top-up became (completed, pending at 3-D Secure, declined) and however
/// many times or at once, answers that top-up and never makes or confirms a second payment: a spy network counts.
@Suite("Top-up replays never pay twice", .serialized)
struct TopUpReplayTests {
    static let replayed = TestServer.replayed

    /// A server on `store` whose network is `spy`, with Sam and a card of `cardNumber`.
    private func withSam(
        _ store: TestStore, cardNumber: String, _ body: @escaping @Sendable (TestServer, any TestClientProtocol, SpyCardNetwork, Registered, String) async throws -> Void
    ) async throws {
        let spy = SpyCardNetwork()
        let base = try TestServer().using(spy)
        defer { base.remove() }
        try await base.withServer(on: store) { server in
            try await server.withRouter { client in
                let (sam, card) = try await server.userWithCard(client, cardNumber: cardNumber)
                try await body(server, client, spy, sam, card)
            }
        }
    }

    @Test("A completed top-up replayed answers it again (201), with no call to the network", arguments: TestStore.allCases)
    func completed(store: TestStore) async throws {
        try await withSam(store, cardNumber: Seeds.visa) { server, client, spy, sam, card in
            let made = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
            #expect(made.status == .created)
            for _ in 1...3 {
                let again = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
                #expect(again.status == .created && again.body == made.body && again.headers[Self.replayed] == "true")
            }
            #expect(spy.count(.makePayment) == 1 && spy.count(.confirm) == 1 && spy.count(.payment) == 0)
            #expect(try await server.balance(client, sam.token) == 103_000)
        }
    }

    @Test("A pending top-up replayed answers it again (202) after asking where its payment stands; once confirmed, the key completes it once", arguments: TestStore.allCases)
    func pending(store: TestStore) async throws {
        try await withSam(store, cardNumber: "4000002760003184") { server, client, spy, sam, card in
            let started = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
            #expect(started.status == .accepted)
            for _ in 1...3 {
                let again = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
                #expect(again.status == .accepted && again.body == started.body && again.headers[Self.replayed] == "true")
            }
            #expect(spy.count(.makePayment) == 1 && spy.count(.confirm) == 1 && spy.count(.payment) == 3)
            let paymentID = try #require(spy.payments.first)
            #expect(spy.authenticate(paymentID: paymentID, success: true))
            let completed = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
            #expect(completed.status == .created && completed.json["status"] as? String == "completed")
            #expect(completed.json["id"] as? String == started.json["id"] as? String && completed.headers[Self.replayed] == "true")
            let after = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
            #expect(after.status == .created && after.body == completed.body)
            #expect(spy.count(.makePayment) == 1 && spy.confirmedAtNetwork == 1 && spy.count(.payment) == 4)
            #expect(try await server.balance(client, sam.token) == 103_000)
            #expect(try await server.topUpLines(client, sam.token).count == 1)
        }
    }

    @Test("A declined top-up replayed answers 402 again, with no call to the network; a new key tries the card anew", arguments: TestStore.allCases)
    func declined(store: TestStore) async throws {
        try await withSam(store, cardNumber: "4000000000000341") { server, client, spy, sam, card in
            let refused = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
            #expect(refused.status.code == 402)
            for _ in 1...3 {
                let again = try await server.topUp(client, sam.token, card: card, 3_000, key: "k")
                #expect(again.status.code == 402 && again.json["detail"] as? String == refused.json["detail"] as? String)
            }
            #expect(spy.count(.makePayment) == 1 && spy.count(.confirm) == 1 && spy.count(.payment) == 0)
            #expect(try await server.topUp(client, sam.token, card: card, 3_000, key: "k2").status.code == 402)
            #expect(spy.count(.makePayment) == 2 && Set(spy.paymentKeys).count == 2)
            #expect(try await server.balance(client, sam.token) == 100_000)
        }
    }

    @Test("Eight requests with one key at once: one top-up, every payment call with one key and one payment, credited once", arguments: TestStore.allCases)
    func atOnce(store: TestStore) async throws {
        try await withSam(store, cardNumber: Seeds.visa) { server, client, spy, sam, card in
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await server.topUp(client, sam.token, card: card, 4_000, key: "race") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .created && $0.json["status"] as? String == "completed" }, "\(replies.map(\.status))")
            #expect(Set(replies.compactMap { $0.json["id"] as? String }).count == 1)
            #expect(Set(replies.compactMap { $0.json["transferId"] as? String }).count == 1)
            #expect(replies.filter { $0.headers[Self.replayed] == nil }.count == 1)
            #expect(Set(spy.payments).count == 1 && Set(spy.paymentKeys).count == 1 && Set(spy.confirmKeys).count == 1)
            #expect(try await server.balance(client, sam.token) == 104_000)
            #expect(try await server.topUpLines(client, sam.token).count == 1)
        }
    }
}
