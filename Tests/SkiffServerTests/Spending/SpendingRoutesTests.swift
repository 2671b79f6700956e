import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SkiffServer

@Suite("Spending routes")
struct SpendingRoutesTests {
    /// Every transaction of the signed-in user, through the list operation.
    private func allTransactions(_ client: any TestClientProtocol, token: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        repeat {
            let page = try await client.send(.get, "/v1/transactions?limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            items += try #require(page.json["items"] as? [[String: Any]])
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        return items
    }

    /// What went out per category in the month starting with `prefix` (`2026-09`), from the listed transactions; up
    /// to and including its day `throughDay` when given.
    private func expectedSpending(_ items: [[String: Any]], month prefix: String, throughDay: Int = 31) -> [String: Int64] {
        var sums: [String: Int64] = [:]
        for item in items {
            guard let date = item["createdAt"] as? String, date.hasPrefix(prefix + "-"),
                  let day = Int(date.dropFirst(8).prefix(2)), day <= throughDay,
                  let amount = (item["amountMinor"] as? Int).map(Int64.init), amount < 0, let category = item["category"] as? String
            else { continue }
            sums[category, default: 0] -= amount
        }
        return sums
    }

    @Test("Without a month, the current UTC month's debits are summed per category, largest first, with last month's total")
    func currentMonth() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await AccountRoutesTests().demoLogin(client)
            let reply = try await client.send(.get, "/v1/spending", token: token)
            #expect(reply.status == .ok)
            #expect(reply.json["month"] as? String == "2026-09")
            #expect(reply.json["previousMonth"] as? String == "2026-08")
            let categories = try #require(reply.json["categories"] as? [[String: Any]])
            let amounts = categories.compactMap { $0["amountMinor"] as? Int }.map(Int64.init)
            #expect(amounts.count == categories.count && !amounts.isEmpty)
            #expect(amounts == amounts.sorted(by: >))
            #expect(categories.allSatisfy { $0["currency"] as? String == "USD" })

            let items = try await allTransactions(client, token: token)
            let september = expectedSpending(items, month: "2026-09")
            let august = expectedSpending(items, month: "2026-08")
            var answered: [String: Int64] = [:]
            for category in categories { answered[category["category"] as? String ?? ""] = (category["amountMinor"] as? Int).map(Int64.init) }
            #expect(answered == september)
            #expect(answered["Salary"] == nil)
            let totals = try #require(reply.json["totals"] as? [[String: Any]])
            #expect(totals.count == 1)
            #expect((totals.first?["amountMinor"] as? Int).map(Int64.init) == september.values.reduce(0, +))
            let previousTotals = try #require(reply.json["previousTotals"] as? [[String: Any]])
            #expect((previousTotals.first?["amountMinor"] as? Int).map(Int64.init) == august.values.reduce(0, +))
            #expect(previousTotals.first?["currency"] as? String == "USD")

            // The test clock reads 2026-09-21 (UTC): August is compared over its 1st to its 21st.
            let sameDays = try #require(reply.json["previousSameDays"] as? [String: Any])
            #expect(sameDays["from"] as? String == "2026-08-01")
            #expect(sameDays["through"] as? String == "2026-08-21")
            let augustSoFar = expectedSpending(items, month: "2026-08", throughDay: 21).values.reduce(0, +)
            let sameDaysTotals = try #require(sameDays["totals"] as? [[String: Any]])
            #expect(sameDaysTotals.count == 1)
            #expect((sameDaysTotals.first?["amountMinor"] as? Int).map(Int64.init) == augustSoFar)
            #expect(augustSoFar > 0 && augustSoFar < august.values.reduce(0, +))
        }
    }

    @Test("The same days move with the clock; on the month's last day a shorter month before is compared whole")
    func sameDaysFollowTheClock() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await AccountRoutesTests().demoLogin(client)
            let items = try await allTransactions(client, token: token)
            // From 2026-09-21T14:13Z to 2026-09-30T23:30Z, then to 2026-10-31T12:00Z.
            // Signed in again after each move: an idle session locks itself.
            server.clock.advance(by: 9 * 86_400 + 33_980)
            let september = try await client.send(.get, "/v1/spending", token: try await AccountRoutesTests().demoLogin(client))
            let late = try #require(september.json["previousSameDays"] as? [String: Any])
            #expect(late["from"] as? String == "2026-08-01")
            #expect(late["through"] as? String == "2026-08-30")
            #expect((late["totals"] as? [[String: Any]])?.first?["amountMinor"] as? Int
                == Int(expectedSpending(items, month: "2026-08", throughDay: 30).values.reduce(0, +)))
            server.clock.advance(by: 30 * 86_400 + 45_000)
            let october = try await client.send(.get, "/v1/spending", token: try await AccountRoutesTests().demoLogin(client))
            #expect(october.json["month"] as? String == "2026-10")
            let whole = try #require(october.json["previousSameDays"] as? [String: Any])
            #expect(whole["from"] as? String == "2026-09-01")
            #expect(whole["through"] as? String == "2026-09-30")
            let wholeTotals = try #require(whole["totals"] as? [[String: Any]])
            #expect((wholeTotals.first?["amountMinor"] as? Int).map(Int64.init) == expectedSpending(items, month: "2026-09").values.reduce(0, +))
            #expect((october.json["previousTotals"] as? [[String: Any]])?.first?["amountMinor"] as? Int
                == wholeTotals.first?["amountMinor"] as? Int)
        }
    }

    @Test("A month is read as YYYY-MM; a month without spending answers empty lists")
    func givenMonth() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await AccountRoutesTests().demoLogin(client)
            let items = try await allTransactions(client, token: token)
            let august = try await client.send(.get, "/v1/spending?month=2026-08", token: token)
            #expect(august.json["month"] as? String == "2026-08")
            #expect(august.json["previousMonth"] as? String == "2026-07")
            let total = ((august.json["totals"] as? [[String: Any]])?.first?["amountMinor"] as? Int).map(Int64.init)
            #expect(total == expectedSpending(items, month: "2026-08").values.reduce(0, +))
            // A month that is over is compared with all of the month before.
            let july = try #require(august.json["previousSameDays"] as? [String: Any])
            #expect(july["from"] as? String == "2026-07-01")
            #expect(july["through"] as? String == "2026-07-31")
            #expect((july["totals"] as? [[String: Any]])?.first?["amountMinor"] as? Int
                == (august.json["previousTotals"] as? [[String: Any]])?.first?["amountMinor"] as? Int)

            let january = try await client.send(.get, "/v1/spending?month=2001-01", token: token)
            #expect(january.status == .ok)
            #expect(january.json["previousMonth"] as? String == "2000-12")
            #expect((january.json["categories"] as? [Any])?.isEmpty == true)
            #expect((january.json["totals"] as? [Any])?.isEmpty == true)
            #expect((january.json["previousTotals"] as? [Any])?.isEmpty == true)
            let december = try #require(january.json["previousSameDays"] as? [String: Any])
            #expect(december["from"] as? String == "2000-12-01")
            #expect(december["through"] as? String == "2000-12-31")
            #expect((december["totals"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A month outside the contract's pattern is a 400 validation problem", arguments: [
        "2026-13", "2026-00", "2026-1", "26-01", "0999-12", "2026-01-01", "２０２６-01",
    ])
    func badMonth(month: String) async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await AccountRoutesTests().demoLogin(client)
            let encoded = month.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-"])) ?? month
            let reply = try await client.send(.get, "/v1/spending?month=\(encoded)", token: token)
            #expect(reply.status == .badRequest)
            #expect(reply.errorFields == ["month"])
        }
    }

    @Test("Spending needs a session")
    func needsSession() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let reply = try await client.send(.get, "/v1/spending", token: nil)
            #expect(reply.status == .unauthorized)
        }
    }

    @Test("Totals that do not fit in 64 bits answer a problem instead of trapping")
    func totalTooLarge() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            let registered = try await server.register(client)
            // A store holding two debits of the largest amount, in two categories of one currency.
            let store = try SQLiteDatabase(path: server.databasePath)
            let now = server.clock.now()
            try await store.repositories.transactions.insert(userID: registered.userID, count: 2) { index in
                NewTransaction(
                    amountMinor: -Int64.max, currency: "USD", merchant: "Huge \(index)", category: "Category \(index)",
                    createdAt: now
                )
            }
            let reply = try await client.send(.get, "/v1/spending", token: registered.token)
            #expect(reply.status == .internalServerError)
            #expect(reply.problemType == "urn:skiff:problem:amounts-too-large")
        }
    }
}
