import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

/// Issue 42: money sent to another person is not Spending, nor is a top-up; what was bought still is.
@Suite("Spending leaves out transfers between people and top-ups")
struct SpendingNotTransfersRoutesTests {
    /// The categories of `GET /v1/spending`'s month with their amounts, and the month's total.
    private func spending(_ client: any TestClientProtocol, _ token: String) async throws -> (categories: [String: Int], total: Int?) {
        let reply = try await client.send(.get, "/v1/spending", token: token)
        #expect(reply.status == .ok)
        var categories: [String: Int] = [:]
        for category in reply.json["categories"] as? [[String: Any]] ?? [] {
            categories[category["category"] as? String ?? ""] = category["amountMinor"] as? Int
        }
        let total = (reply.json["totals"] as? [[String: Any]])?.first?["amountMinor"] as? Int
        return (categories, total)
    }

    @Test("Alex sends Jordan $12.50 and tops up $50: neither side's Spending has them; a card purchase still counts")
    func transfersAndTopUpsAreNotSpending() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let alex = try await server.register(client, number: "202 555 0100", name: "Alex Rivera")
            let jordan = try await server.register(client, number: "202 555 0111", name: "Jordan Rowe Lee")
            let found = try await client.send(.get, "/v1/recipients?countryCode=%2B1&phoneNumber=202-555-0111", token: alex.token)
            let recipient = try #require(found.json["recipientId"] as? String)
            let sent = try await client.send(
                .post, "/v1/transfers", json: ["recipientId": recipient, "amountMinor": 1_250, "currency": "USD"],
                token: alex.token, idempotencyKey: "t-1"
            )
            #expect(sent.status == .created)
            let card = try await server.addCard(client, token: alex.token, number: Seeds.visa)
            let topUp = try await client.send(
                .post, "/v1/topups", json: ["cardId": try #require(card.json["id"] as? String), "amountMinor": 5_000, "currency": "USD"],
                token: alex.token, idempotencyKey: "u-1"
            )
            #expect(topUp.status == .created)
            // Both lines are there, in the categories their services give them.
            let lines = try #require(try await client.send(.get, "/v1/transactions?limit=10", token: alex.token).json["items"] as? [[String: Any]])
            let categories = Set(lines.compactMap { $0["category"] as? String })
            #expect(categories.isSuperset(of: [StatementLine.transferCategory, StatementLine.topUpCategory]))

            #expect(try await spending(client, alex.token).categories.isEmpty)
            #expect(try await spending(client, jordan.token).categories.isEmpty)

            // A purchase on the same day is spending, beside them: the total is the purchase alone.
            let components = try await SkiffServerComponents(server.configuration)
            try await components.repositories.transactions.insert(userID: alex.userID, count: 1) { _ in
                NewTransaction(amountMinor: -725, currency: "USD", merchant: "Blue Bottle Coffee", category: "Coffee", createdAt: server.clock.now())
            }
            await components.store.close()
            let after = try await spending(client, alex.token)
            #expect(after.categories == ["Coffee": 725])
            #expect(after.total == 725)
        }
    }
}
