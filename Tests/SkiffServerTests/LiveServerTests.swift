import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SkiffAPI
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Live server")
struct LiveServerTests {
    @Test("The generated client talks to the server over a real socket")
    func generatedClient() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        let app = try await buildApplication(server.configuration)
        try await app.test(.live) { testClient in
            let port = try #require(testClient.port)
            let token = TokenBox()
            let client = Client(
                serverURL: try #require(URL(string: "http://127.0.0.1:\(port)")),
                transport: AsyncHTTPClientTransport(),
                middlewares: [BearerTokenMiddleware { await token.value }]
            )
            let demo = DemoCredentials.demo
            let session = try await client.login(body: .json(.init(
                countryCode: demo.countryCode, phoneNumber: demo.phoneNumber, password: demo.password
            ))).ok.body.json
            #expect(session.user.fullName == demo.fullName)
            await token.set(session.token)

            let me = try await client.getMe().ok.body.json
            #expect(me.unreadNotifications == 3)
            let page = try await client.listTransactions(query: .init(limit: 20)).ok.body.json
            #expect(page.items.count == 20)
            let next = try await client.listTransactions(query: .init(limit: 20, cursor: page.nextCursor)).ok.body.json
            #expect(next.items.first?.id != page.items.first?.id)

            // The wallet's way to add a card: where to tokenize it, the network's token, then Skiff is sent the token.
            let network = try await client.getCardNetwork().ok.body.json
            #expect(network.network == .simulated && network.publishableKey == "pk_simulated")
            let tokenize = { @Sendable (number: String) async throws -> String in
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)" + network.apiUrl + "/v1/tokens")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: FormBody.encode(FormBody.card(key: network.publishableKey, number: number))))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
                return try #require(object?["id"] as? String)
            }
            let card = try await client.addCard(
                headers: .init(idempotencyKey: "live-1"),
                body: .json(.init(cardToken: try await tokenize(Seeds.visa), holderName: "Alex Rivera"))
            )
            guard case .created(let created) = card else { throw TestFailure("addCard: \(card)") }
            #expect(created.headers.location.hasPrefix("/v1/cards/"))
            #expect(try created.body.json.last4 == "4242")

            let duplicate = try await client.addCard(
                headers: .init(idempotencyKey: "live-2"),
                body: .json(.init(cardToken: try await tokenize("4242 4242 4242 4242"), holderName: "Alex Rivera"))
            )
            guard case .default(let statusCode, let problem) = duplicate else { throw TestFailure("expected a problem") }
            #expect(statusCode == 409)
            #expect(try problem.body.applicationProblemJson._type == "urn:skiff:problem:duplicate-card")

            _ = try await client.logout().noContent
            await token.set(nil)
            guard case .default(let status, _) = try await client.getMe() else { throw TestFailure("expected 401") }
            #expect(status == 401)
        }
    }

    @Test("An embedded instance binds a free port, answers, and stops")
    func embeddedInstance() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        let instance = try await SkiffServerInstance.start(server.configuration)
        #expect(instance.port > 0)
        #expect(instance.baseURL.absoluteString == "http://127.0.0.1:\(instance.port)")
        let client = Client(serverURL: instance.baseURL, transport: AsyncHTTPClientTransport())
        let demo = DemoCredentials.demo
        let session = try await client.login(body: .json(.init(
            countryCode: demo.countryCode, phoneNumber: demo.phoneNumber, password: demo.password
        ))).ok.body.json
        #expect(session.user.phoneNumber == "2025550143")
        let stopping = ContinuousClock.now
        await instance.stop()
        // Not a speed check: a stop that waited for the client's idle keep-alive connection would take minutes.
        // (Under a full parallel run, with the fault and kill tests beside it, a stop took 5.2 s once.)
        #expect(ContinuousClock.now - stopping < .seconds(30))
        let request = HTTPClientRequest(url: instance.baseURL.appendingPathComponent("health").absoluteString)
        // A new client, so no connection pooled during the login is reused. The connect is refused, or, when a
        // test running in parallel has just been handed the freed port, reset (a socket it closes) or left
        // waiting (a listener that never answers, as the app's timeout test makes): every way, no HTTP answer.
        let fresh = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            _ = try await fresh.execute(request, timeout: .seconds(3))
            Issue.record("the server still answers after stop")
        } catch {
            let text = String(describing: error)
            #expect(
                text.contains("refused") || text.contains("reset by peer") || text.contains("deadlineExceeded"), "\(error)"
            )
        }
        try await fresh.shutdown()
    }
}

/// The token the live client sends, changed as the test signs in and out.
actor TokenBox {
    var value: String?
    func set(_ token: String?) { value = token }
}
