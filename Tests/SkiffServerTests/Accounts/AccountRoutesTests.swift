import Foundation
import HTTPTypes
import HummingbirdTesting
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Account routes")
struct AccountRoutesTests {
    func demoLogin(_ client: any TestClientProtocol) async throws -> String {
        let reply = try await client.send(
            .post, "/v1/auth/login", json: [
                "countryCode": DemoCredentials.demo.countryCode, "phoneNumber": DemoCredentials.demo.phoneNumber,
                "password": DemoCredentials.demo.password,
            ]
        )
        guard let token = reply.json["token"] as? String else { throw TestFailure("demo login: \(reply.status) \(reply.body)") }
        return token
    }

    @Test("/v1/me shows the user, the balance and the unread count")
    func me() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let me = try await client.send(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            let user = try #require(me.json["user"] as? [String: Any])
            #expect(user["fullName"] as? String == DemoCredentials.demo.fullName)
            #expect(user["countryCode"] as? String == "+1")
            #expect(user["phoneNumber"] as? String == "2025550143")
            #expect((me.json["balance"] as? [String: Any])?["currency"] as? String == "USD")
            #expect(me.json["unreadNotifications"] as? Int == 3)
        }
    }

    @Test("Transactions page newest first with keyset cursors until the last page")
    func paging() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            var cursor: String?
            var ids: [String] = []
            var dates: [String] = []
            var pages: [Int] = []
            repeat {
                let uri = "/v1/transactions?limit=50" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: token)
                #expect(page.status == .ok)
                let items = try #require(page.json["items"] as? [[String: Any]])
                pages.append(items.count)
                ids += items.compactMap { $0["id"] as? String }
                dates += items.compactMap { $0["createdAt"] as? String }
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil
            #expect(pages == [50, 50, 50, 50, 40])
            #expect(Set(ids).count == 240)
            #expect(dates == dates.sorted(by: >))
        }
    }

    @Test("The default page has 50 transactions, and each has every field")
    func defaultPage() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let page = try await client.send(.get, "/v1/transactions", token: token)
            let items = try #require(page.json["items"] as? [[String: Any]])
            #expect(items.count == 50)
            let first = try #require(items.first)
            #expect(Set(first.keys) == ["id", "amountMinor", "currency", "merchant", "category", "createdAt"])
            let merchants = Set(items.compactMap { $0["merchant"] as? String })
            #expect(merchants.count > 10)
        }
    }

    @Test("A query keeps transactions whose merchant or category matches, in any case")
    func search() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let byMerchant = try await client.send(.get, "/v1/transactions?limit=200&query=uber", token: token)
            let merchantItems = try #require(byMerchant.json["items"] as? [[String: Any]])
            #expect(!merchantItems.isEmpty)
            #expect(merchantItems.allSatisfy { ($0["merchant"] as? String) == "Uber" })

            let byCategory = try await client.send(.get, "/v1/transactions?limit=200&query=GROCER", token: token)
            let categoryItems = try #require(byCategory.json["items"] as? [[String: Any]])
            #expect(!categoryItems.isEmpty)
            #expect(categoryItems.allSatisfy { ($0["category"] as? String) == "Groceries" })

            let wildcard = try await client.send(.get, "/v1/transactions?query=%25", token: token)
            #expect((wildcard.json["items"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("A searched list pages too")
    func searchPaging() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let all = try await client.send(.get, "/v1/transactions?limit=200&query=coffee", token: token)
            let total = (all.json["items"] as? [[String: Any]])?.count ?? 0
            var seen = 0
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/v1/transactions?limit=7&query=coffee" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token
                )
                seen += (page.json["items"] as? [[String: Any]])?.count ?? 0
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil
            #expect(total > 7)
            #expect(seen == total)
        }
    }

    @Test("A search too short for the index says how many of the newest transactions it searched, when there are more; a longer one does not")
    func shortSearchLimit() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            // The demo's 240 transactions are all within the window: nothing to say.
            #expect(try await client.send(.get, "/v1/transactions?query=co", token: token).json["searchLimit"] == nil)
            let demo = DemoCredentials.demo
            _ = try await SkiffServerSeeder.seed(
                server.configuration, countryCode: demo.countryCode, phoneNumber: demo.phoneNumber, fullName: "Alex Rivera",
                password: demo.password, transactions: TransactionSearch.shortQueryWindow
            )
            let short = try await client.send(.get, "/v1/transactions?query=%20co%20", token: token)
            #expect(short.json["searchLimit"] as? Int == TransactionSearch.shortQueryWindow)
            let long = try await client.send(.get, "/v1/transactions?query=cof", token: token)
            #expect(long.status == .ok)
            #expect(long.json["searchLimit"] == nil)
            #expect(try await client.send(.get, "/v1/transactions", token: token).json["searchLimit"] == nil)
        }
    }

    @Test("Bad paging parameters are validation problems: 400 outside the contract's bounds, 422 for a cursor never issued", arguments: [
        ("limit=0", "limit", 400), ("limit=201", "limit", 400), ("cursor=nonsense", "cursor", 422),
        ("cursor=" + String(repeating: "a", count: 201), "cursor", 400),
        ("query=" + String(repeating: "e%CC%81", count: 51), "query", 400),
    ])
    func pagingValidation(query: String, field: String, status: Int) async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let reply = try await client.send(.get, "/v1/transactions?\(query)", token: token)
            #expect(reply.status.code == status)
            #expect(reply.contentType == "application/problem+json")
            #expect(reply.errorFields == [field])
        }
    }

    @Test("A non-numeric limit is a bad request problem")
    func limitNotANumber() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let reply = try await client.send(.get, "/v1/transactions?limit=ten", token: token)
            #expect(reply.status == .badRequest)
            #expect(reply.contentType == "application/problem+json")
        }
    }

    @Test("A user sees only their own transactions")
    func transactionsArePrivate() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let demoToken = try await demoLogin(client)
            let demoPage = try await client.send(.get, "/v1/transactions?limit=1", token: demoToken)
            let cursor = try #require(demoPage.json["nextCursor"] as? String)
            let mine = try await client.send(.get, "/v1/transactions?limit=200", token: user.token)
            #expect((mine.json["items"] as? [[String: Any]])?.count == 1)
            let withDemoCursor = try await client.send(.get, "/v1/transactions?cursor=\(cursor)", token: user.token)
            #expect((withDemoCursor.json["items"] as? [[String: Any]])?.allSatisfy { $0["merchant"] as? String == "Skiff" } == true)
        }
    }

    @Test("Notifications come newest first and can be marked read")
    func notifications() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let token = try await demoLogin(client)
            let list = try await client.send(.get, "/v1/notifications", token: token)
            #expect(list.status == .ok)
            #expect(list.array.count == 4)
            let dates = list.array.compactMap { $0["createdAt"] as? String }
            #expect(dates == dates.sorted(by: >))
            #expect(list.array.filter { $0["read"] as? Bool == false }.count == 3)
            let id = try #require(list.array.first?["id"] as? String)
            #expect(try await client.send(.post, "/v1/notifications/\(id)/read", token: token).status == .noContent)
            #expect(try await client.send(.post, "/v1/notifications/\(id)/read", token: token).status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: token).json["unreadNotifications"] as? Int == 2)
            let unknown = try await client.send(.post, "/v1/notifications/nope/read", token: token)
            #expect(unknown.status == .notFound)
            #expect(unknown.contentType == "application/problem+json")
        }
    }

    @Test("Another user's notification answers 404")
    func notificationsArePrivate() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        try await server.withRouter { client in
            let user = try await server.register(client)
            let demoToken = try await demoLogin(client)
            let demoNotification = try #require(
                try await client.send(.get, "/v1/notifications", token: demoToken).array.first?["id"] as? String
            )
            #expect(try await client.send(.post, "/v1/notifications/\(demoNotification)/read", token: user.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/notifications", token: user.token).array.count == 1)
            #expect(try await client.send(.get, "/v1/me", token: demoToken).json["unreadNotifications"] as? Int == 3)
        }
    }
}
