import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

/// How much may come in from cards in any 24 hours (`SkiffServerLimits.topUpVelocity`): per account, and per card on
/// any account, by count and by amount; declined top-ups do not count, pending ones do; a replay is not a new one.
@Suite("Top-up limits per account and per card", .serialized)
struct TopUpVelocityTests {
    /// A server on `store` with these limits (the other one out of reach).
    private func withServer(
        _ store: TestStore, perAccount: TopUpVelocity.Limit = .init(count: 100, amountMinor: 100_000_000),
        perCard: TopUpVelocity.Limit = .init(count: 100, amountMinor: 100_000_000),
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        var base = try TestServer()
        base.configuration.limits.topUpVelocity.perAccount = perAccount
        base.configuration.limits.topUpVelocity.perCard = perCard
        let configured = base
        defer { configured.remove() }
        try await configured.withServer(on: store) { server in
            try await server.withRouter { client in try await body(server, client) }
        }
    }

    private func isLimit(_ reply: Reply, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == .unprocessableContent, sourceLocation: sourceLocation)
        #expect(reply.problemType == "urn:skiff:problem:top-up-limit", sourceLocation: sourceLocation)
        #expect(reply.errorMessages == ["amountMinor": message], "\(reply.body)", sourceLocation: sourceLocation)
    }

    /// Signs in again (the session has gone idle once the clock moved a day).
    private func signIn(_ client: any TestClientProtocol, number: String = "202 555 0100") async throws -> String {
        let login = try await client.send(.post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": number, "password": Seeds.password])
        return try #require(login.json["token"] as? String)
    }

    @Test("Per account, by count: the third top-up in 24 hours is refused (422 top-up-limit); a replay of an earlier key still answers; a day later it is allowed", arguments: TestStore.allCases)
    func accountCount(store: TestStore) async throws {
        try await withServer(store, perAccount: .init(count: 2, amountMinor: 1_000_000)) { server, client in
            let (sam, visa) = try await server.userWithCard(client)
            let mastercard = try #require(try await server.addCard(client, token: sam.token, number: Seeds.mastercard).json["id"] as? String)
            #expect(try await server.topUp(client, sam.token, card: visa, 1_000, key: "1").status == .created)
            #expect(try await server.topUp(client, sam.token, card: mastercard, 1_000, key: "2").status == .created)
            isLimit(try await server.topUp(client, sam.token, card: mastercard, 1_000, key: "3"), "At most 2 top-ups from this account in 24 hours: try again later.")
            let replay = try await server.topUp(client, sam.token, card: mastercard, 1_000, key: "2")
            #expect(replay.status == .created && replay.headers[TestServer.replayed] == "true")
            #expect(try await server.balance(client, sam.token) == 102_000)

            server.clock.advance(by: 24 * 3_600 - 60)
            let token = try await signIn(client)
            isLimit(try await server.topUp(client, token, card: visa, 1_000, key: "4"), "At most 2 top-ups from this account in 24 hours: try again later.")
            server.clock.advance(by: 61)
            #expect(try await server.topUp(client, token, card: visa, 1_000, key: "5").status == .created)
            #expect(try await server.balance(client, token) == 103_000)
        }
    }

    @Test("Per account, by amount: up to the limit exactly, and the refusal says how much more may come now", arguments: TestStore.allCases)
    func accountAmount(store: TestStore) async throws {
        try await withServer(store, perAccount: .init(count: 10, amountMinor: 10_000)) { server, client in
            let (sam, card) = try await server.userWithCard(client)
            #expect(try await server.topUp(client, sam.token, card: card, 6_000, key: "1").status == .created)
            isLimit(
                try await server.topUp(client, sam.token, card: card, 5_000, key: "2"),
                "At most $100.00 from this account in 24 hours: $40.00 more can be added now."
            )
            #expect(try await server.topUp(client, sam.token, card: card, 4_000, key: "3").status == .created)
            isLimit(
                try await server.topUp(client, sam.token, card: card, 1, key: "4"),
                "At most $100.00 from this account in 24 hours: $0.00 more can be added now."
            )
            #expect(try await server.balance(client, sam.token) == 110_000)
            // Another account is not held back by Sam's.
            let (alex, alexCard) = try await server.userWithCard(client, number: "202 555 0101", cardNumber: Seeds.mastercard)
            #expect(try await server.topUp(client, alex.token, card: alexCard, 10_000, key: "1").status == .created)
        }
    }

    @Test("Declined top-ups do not count against the limits; pending ones (waiting for 3-D Secure) do", arguments: TestStore.allCases)
    func declinedDoNotCount(store: TestStore) async throws {
        try await withServer(store, perAccount: .init(count: 2, amountMinor: 10_000), perCard: .init(count: 1, amountMinor: 10_000)) { server, client in
            let (sam, declining) = try await server.userWithCard(client, cardNumber: "4000000000000341")
            for attempt in 1...3 {
                let refused = try await server.topUp(client, sam.token, card: declining, 9_000, key: "d\(attempt)")
                #expect(refused.status.code == 402 && refused.problemType == "urn:skiff:problem:card-declined")
            }
            let confirming = try #require(try await server.addCard(client, token: sam.token, number: "4000002760003184").json["id"] as? String)
            #expect(try await server.topUp(client, sam.token, card: confirming, 5_000, key: "p").status == .accepted)
            isLimit(
                try await server.topUp(client, sam.token, card: confirming, 1_000, key: "p2"),
                "At most 1 top-ups from one card in 24 hours: try again later."
            )
            let visa = try #require(try await server.addCard(client, token: sam.token, number: Seeds.visa).json["id"] as? String)
            isLimit(
                try await server.topUp(client, sam.token, card: visa, 5_001, key: "v1"),
                "At most $100.00 from this account in 24 hours: $50.00 more can be added now."
            )
            #expect(try await server.topUp(client, sam.token, card: visa, 5_000, key: "v2").status == .created)
            isLimit(try await server.topUp(client, sam.token, card: visa, 1, key: "v3"), "At most 2 top-ups from this account in 24 hours: try again later.")
        }
    }

    @Test("Per card, across accounts: a card's top-ups on one account count when it moves to another, by count and by amount", arguments: TestStore.allCases)
    func cardAcrossAccounts(store: TestStore) async throws {
        try await withServer(store, perCard: .init(count: 2, amountMinor: 5_000)) { server, client in
            let (sam, samVisa) = try await server.userWithCard(client)
            #expect(try await server.topUp(client, sam.token, card: samVisa, 1_000, key: "1").status == .created)
            isLimit(
                try await server.topUp(client, sam.token, card: samVisa, 4_500, key: "2"),
                "At most $50.00 from one card in 24 hours: $40.00 more can be added now."
            )
            #expect(try await server.topUp(client, sam.token, card: samVisa, 1_500, key: "3").status == .created)
            isLimit(try await server.topUp(client, sam.token, card: samVisa, 100, key: "4"), "At most 2 top-ups from one card in 24 hours: try again later.")

            // The card moves to Alex: its day's top-ups come with it.
            #expect(try await client.send(.delete, "/v1/cards/\(samVisa)", token: sam.token).status == .noContent)
            let alex = try await server.register(client, number: "202 555 0101")
            let alexVisa = try #require(try await server.addCard(client, token: alex.token).json["id"] as? String)
            isLimit(try await server.topUp(client, alex.token, card: alexVisa, 100, key: "1"), "At most 2 top-ups from one card in 24 hours: try again later.")
            // Alex's own other card, and Sam's other card, are another matter.
            let alexMastercard = try #require(try await server.addCard(client, token: alex.token, number: Seeds.mastercard).json["id"] as? String)
            #expect(try await server.topUp(client, alex.token, card: alexMastercard, 5_000, key: "2").status == .created)
            let samAmex = try #require(try await server.addCard(client, token: sam.token, number: Seeds.amex, cvc: "1234").json["id"] as? String)
            #expect(try await server.topUp(client, sam.token, card: samAmex, 100, key: "5").status == .created)

            server.clock.advance(by: 24 * 3_600 + 1)
            let alexAgain = try await signIn(client, number: "202 555 0101")
            #expect(try await server.topUp(client, alexAgain, card: alexVisa, 5_000, key: "3").status == .created)
            #expect(try await server.balance(client, alexAgain) == 110_000)
        }
    }
}
