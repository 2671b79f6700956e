import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SkiffCore
@testable import SkiffServer

/// A clock the test moves by hand.
final class TestClock: ServerClock {
    private let current: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        current = NIOLockedValueBox(start)
    }

    func now() -> Date { current.withLockedValue { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// Records every code instead of sending it; `gate`, when set, holds each send until it is opened.
final class CapturingCodeSender: CodeSender {
    private let sent = NIOLockedValueBox<[OutgoingCode]>([])
    private let gate = NIOLockedValueBox<AsyncStream<Void>?>(nil)
    private let entered = NIOLockedValueBox<AsyncStream<Void>.Continuation?>(nil)

    var messages: [OutgoingCode] { sent.withLockedValue { $0 } }
    var last: OutgoingCode? { messages.last }

    func send(_ message: OutgoingCode) async throws {
        _ = entered.withLockedValue { $0?.yield() }
        if let gate = gate.withLockedValue({ $0 }) {
            for await _ in gate { break }
        }
        sent.withLockedValue { $0.append(message) }
    }

    /// Makes the next sends wait until `open` is called; the returned stream yields when a send is waiting.
    func hold() -> (entered: AsyncStream<Void>, open: @Sendable () -> Void) {
        let (gateStream, gateContinuation) = AsyncStream<Void>.makeStream()
        let (enteredStream, enteredContinuation) = AsyncStream<Void>.makeStream()
        gate.withLockedValue { $0 = gateStream }
        entered.withLockedValue { $0 = enteredContinuation }
        return (enteredStream, { [gate] in
            gate.withLockedValue { $0 = nil }
            gateContinuation.yield()
            gateContinuation.finish()
        })
    }
}

/// Keeps every log line in memory, metadata and attached errors included.
struct CapturingLogHandler: LogHandler {
    let lines: NIOLockedValueBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(lines: NIOLockedValueBox<[String]>) {
        self.lines = lines
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let error = event.error.map { " error: \(String(reflecting: $0))" } ?? ""
        lines.withLockedValue { $0.append("\(event.level) \(event.message) \(all)\(error)") }
    }
}

/// A server over a fresh temporary directory, a test clock, a capturing code sender and bcrypt cost 4.
struct TestServer {
    let directory: URL
    let clock: TestClock
    let sender: CapturingCodeSender
    let logLines: NIOLockedValueBox<[String]>
    /// The SQLite file the server runs on.
    let databasePath: String
    var configuration: SkiffServerConfiguration

    init(seedDemo: Bool = false, useOutboxFile: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        clock = TestClock()
        sender = CapturingCodeSender()
        let lines = NIOLockedValueBox<[String]>([])
        logLines = lines
        var logger = Logger(label: "skiff-test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace
        databasePath = directory.appendingPathComponent("skiff.sqlite").path
        configuration = SkiffServerConfiguration(
            host: "127.0.0.1", port: 0, database: .sqlite(path: databasePath),
            smsOutboxPath: directory.appendingPathComponent("sms-outbox.jsonl").path,
            bcryptCost: 4, seedDemoDataIfEmpty: seedDemo, logger: logger, clock: clock,
            codeSender: useOutboxFile ? nil : sender
        )
        // A test's client is as slow as the busiest moment of the suite: with every test of the package running at
        // once on two cores, a task that has connected can wait more than the 10 s head timeout before it writes,
        // and the server then closes the connection (CI saw "Connection reset by peer"). No test but those about
        // the timeouts (`ConnectionTimeoutTests`, which set them) depends on them.
        configuration.limits.requestHeadTimeout = Self.noConnectionTimeout
        configuration.limits.requestBodyTimeout = Self.noConnectionTimeout
        configuration.limits.connectionIdleTimeout = Self.noConnectionTimeout
        // The simulated card network answers at once: the tests about its latency set one.
        configuration.simulatedCardNetworkLatency = .zero
    }

    /// A connection timeout no test waits for.
    static let noConnectionTimeout: TimeInterval = 3600

    var logText: String { logLines.withLockedValue { $0.joined(separator: "\n") } }

    /// The last code sent to `phone` (E.164).
    func lastCode(to phone: String) throws -> String {
        guard let message = sender.messages.last(where: { $0.to == phone }) else { throw TestFailure("no code was sent to \(phone)") }
        return message.code
    }

    /// Builds the application and runs `test` against it without sockets.
    func withRouter<Value: Sendable>(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = try await buildApplication(configuration)
        return try await app.test(.router) { client in try await test(client) }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A response with its body parsed as JSON where it is JSON.
struct Reply: @unchecked Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]] ?? [] }
    var contentType: String? { headers[.contentType] }
    /// The `field` of every validation error.
    var errorFields: [String] { (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
    /// Each field's message, by field.
    var errorMessages: [String: String] {
        var messages: [String: String] = [:]
        for error in json["errors"] as? [[String: Any]] ?? [] {
            if let field = error["field"] as? String, let message = error["message"] as? String { messages[field] = message }
        }
        return messages
    }
    var problemType: String? { json["type"] as? String }
}

extension TestClientProtocol {
    /// Sends `json` (if any) with an optional bearer token and Idempotency-Key.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: [String: any Sendable]? = nil, token: String? = nil,
        idempotencyKey: String? = nil, rawBody: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [.accept: "application/json"]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
        } else if let rawBody {
            headers[.contentType] = "application/json"
            body = ByteBuffer(string: rawBody)
        }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
        let response = try await executeRequest(uri: uri, method: method, headers: headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`, as Stripe.js and a card's bank do to a card network.
    func sendForm(_ uri: String, _ fields: KeyValuePairs<String, String>, headers extra: HTTPFields = [:]) async throws -> Reply {
        try await sendForm(uri, body: FormBody.encode(fields), headers: extra)
    }

    /// POSTs `body`, already form-encoded.
    func sendForm(_ uri: String, body: String, headers extra: HTTPFields = [:]) async throws -> Reply {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"]
        headers.append(contentsOf: extra)
        let response = try await executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
        return Reply(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }
}

/// `application/x-www-form-urlencoded`, as Stripe's clients write it.
enum FormBody {
    static func encode(_ fields: KeyValuePairs<String, String>) -> String {
        FormEncoding.encode(fields.map { ($0.key, $0.value) })
    }

    /// The fields the wallet sends to `POST {apiUrl}/v1/tokens` for a card.
    static func card(
        key: String, number: String, expiryMonth: Int = 12, expiryYear: Int = 2031, cvc: String = "123"
    ) -> KeyValuePairs<String, String> {
        [
            "key": key, "card[number]": number, "card[exp_month]": String(expiryMonth), "card[exp_year]": String(expiryYear),
            "card[cvc]": cvc,
        ]
    }
}

/// Shared inputs.
enum Seeds {
    static let password = "correct horse battery"
    static let visa = "4242424242424242"
    static let mastercard = "5555555555554444"
    static let amex = "378282246310005"
    static let discover = "6011111111111117"
}

/// Registration through the API; returns the session token, the user id and the number in E.164.
struct Registered {
    var token: String
    var userID: String
    var phone: String
}

extension TestServer {
    /// Starts a registration for a +1 number and returns its verification id and the code that was sent.
    func startRegistration(
        _ client: any TestClientProtocol, number: String = "202 555 0100", name: String = "Sam Carter",
        password: String = Seeds.password, idempotencyKey: String = UUID().uuidString
    ) async throws -> (verificationID: String, code: String) {
        let started = try await client.send(
            .post, "/v1/auth/register",
            json: ["countryCode": "+1", "phoneNumber": number, "fullName": name, "password": password],
            idempotencyKey: idempotencyKey
        )
        return try startedVerification(started, by: "register", to: number)
    }

    /// Asks for a password reset of a +1 number with an account and returns its verification id and the code sent.
    func startReset(
        _ client: any TestClientProtocol, number: String = "202 555 0100"
    ) async throws -> (verificationID: String, code: String) {
        let started = try await client.send(.post, "/v1/auth/password/forgot", json: ["countryCode": "+1", "phoneNumber": number])
        return try startedVerification(started, by: "forgot", to: number)
    }

    /// The verification `request` started for a +1 number: its id, from a 202 answer, and the code sent to the number.
    private func startedVerification(
        _ started: Reply, by request: String, to number: String
    ) throws -> (verificationID: String, code: String) {
        guard started.status == .accepted, let verificationID = started.json["verificationId"] as? String else {
            throw TestFailure("\(request) answered \(started.status): \(started.body)")
        }
        return (verificationID, try lastCode(to: "+1" + number.filter(\.isNumber)))
    }

    func register(
        _ client: any TestClientProtocol, number: String = "202 555 0100", name: String = "Sam Carter",
        password: String = Seeds.password
    ) async throws -> Registered {
        let (verificationID, code) = try await startRegistration(client, number: number, name: name, password: password)
        let phone = "+1" + number.filter(\.isNumber)
        let verified = try await client.send(
            .post, "/v1/auth/register/verify", json: ["verificationId": verificationID, "code": code]
        )
        guard verified.status == .created, let token = verified.json["token"] as? String,
              let user = verified.json["user"] as? [String: Any], let userID = user["id"] as? String
        else { throw TestFailure("verify answered \(verified.status): \(verified.body)") }
        clock.advance(by: 31)
        return Registered(token: token, userID: userID, phone: phone)
    }

    /// The user's issued card (its id and last four) with an activation started on it (its verification and code).
    func startIssuedCardActivation(
        _ client: any TestClientProtocol, token: String
    ) async throws -> (id: String, last4: String, verificationID: String, code: String) {
        guard let issued = try await client.send(.get, "/v1/cards", token: token).array.first,
              let id = issued["id"] as? String, let last4 = issued["last4"] as? String
        else { throw TestFailure("the user has no issued card") }
        let started = try await client.send(.post, "/v1/cards/\(id)/activation", json: ["last4": last4], token: token)
        guard started.status == .accepted, let verificationID = started.json["verificationId"] as? String,
              let code = sender.last?.code
        else { throw TestFailure("activation answered \(started.status): \(started.body)") }
        return (id, last4, verificationID, code)
    }

    /// Adds the card `number` as the wallet does: tokenized at the card network (`cardToken`), then the token sent to
    /// `POST /v1/cards`. The number never reaches Skiff's API.
    func addCard(
        _ client: any TestClientProtocol, token: String, number: String = Seeds.visa, cvc: String = "123",
        expiryMonth: Int = 12, expiryYear: Int = 2031, holderName: String = "Sam Carter", key: String = UUID().uuidString
    ) async throws -> Reply {
        let cardToken = try await cardToken(client, number: number, cvc: cvc, expiryMonth: expiryMonth, expiryYear: expiryYear)
        return try await addCard(client, token: token, cardToken: cardToken, holderName: holderName, key: key)
    }

    /// `POST /v1/cards` with a token the card network gave.
    func addCard(
        _ client: any TestClientProtocol, token: String, cardToken: String, holderName: String = "Sam Carter",
        key: String = UUID().uuidString
    ) async throws -> Reply {
        try await client.send(
            .post, "/v1/cards", json: ["cardToken": cardToken, "holderName": holderName], token: token, idempotencyKey: key
        )
    }

    /// The card network's token for a card: from the simulated network's `POST /simulated-card-network/v1/tokens` on
    /// this server, or, when a `SpyCardNetwork` stands in for the network, from the spy (which serves no routes).
    func cardToken(
        _ client: any TestClientProtocol, number: String, cvc: String = "123", expiryMonth: Int = 12, expiryYear: Int = 2031
    ) async throws -> String {
        if let spy = configuration.cardNetworkOverride as? SpyCardNetwork {
            guard let token = spy.token(number: number, expiryMonth: expiryMonth, expiryYear: expiryYear) else {
                throw TestFailure("\(number) is not a card number")
            }
            return token
        }
        let reply = try await client.sendForm(
            SimulatedCardNetwork.apiPath + "/v1/tokens",
            FormBody.card(key: SimulatedCardNetwork.publishableKey, number: number, expiryMonth: expiryMonth, expiryYear: expiryYear, cvc: cvc)
        )
        guard reply.status == .ok, let id = reply.json["id"] as? String else {
            throw TestFailure("tokenizing answered \(reply.status): \(reply.body)")
        }
        return id
    }

    /// A token of the simulated network signed with this server's key, made without its route: for a card the route
    /// refuses (an expiry it takes as past by the machine's clock while the test clock has not reached it).
    func mintedCardToken(number: String, expiryMonth: Int, expiryYear: Int) throws -> String {
        let network = SimulatedCardNetwork(key: try ServerKey.load(for: configuration), latency: .zero)
        guard let token = network.token(number: number, expiryMonth: expiryMonth, expiryYear: expiryYear) else {
            throw TestFailure("\(number) is not a card number")
        }
        return token
    }

    /// The user's balance in minor units (`GET /v1/me`).
    func balance(_ client: any TestClientProtocol, _ token: String) async throws -> Int? {
        let me = try await client.send(.get, "/v1/me", token: token)
        return (me.json["balance"] as? [String: Any])?["amountMinor"] as? Int
    }
}

extension TestServer {
    /// The same server with a larger per-address bucket, for tests about another limit that send many requests at once.
    func allowingAuthBursts(of burst: Int) -> TestServer {
        var server = self
        server.configuration.limits.authRequestBurst = burst
        return server
    }

    /// The same server with `network` in place of the one its configuration names.
    func using(_ network: any CardNetwork) -> TestServer {
        var server = self
        server.configuration.cardNetworkOverride = network
        return server
    }

    /// The same server on Stripe's network (`--card-network stripe`) at `apiURL`, its secret key and webhook secret in
    /// owner-only files of its directory: a configuration as an operator's off loopback would be. Nothing is asked of
    /// the network until a card is added.
    func usingStripe(apiURL: String = "http://127.0.0.1:9", webhookSecret: String? = "whsec_test") throws -> TestServer {
        var server = self
        let secretKeyFile = directory.appendingPathComponent("stripe-secret-key").path
        try Self.writeOwnerOnly("sk_test_skiff\n", to: secretKeyFile)
        var webhookSecretFile: String?
        if let webhookSecret {
            webhookSecretFile = directory.appendingPathComponent("stripe-webhook-secret").path
            try Self.writeOwnerOnly(webhookSecret + "\n", to: webhookSecretFile!)
        }
        server.configuration.cardNetwork = .stripe(StripeSettings(
            apiURL: apiURL, publishableKey: "pk_test_skiff", secretKeyFile: secretKeyFile, webhookSecretFile: webhookSecretFile
        ))
        return server
    }

    /// Writes `text` to `path` with mode 0600.
    static func writeOwnerOnly(_ text: String, to path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw TestFailure("cannot write \(path)") }
    }

    /// Runs `body` with this server on `store`: as it is (SQLite), or on a fresh PostgreSQL database with a server key
    /// given, as instances sharing one must have.
    func withServer(on store: TestStore, _ body: @escaping @Sendable (TestServer) async throws -> Void) async throws {
        switch store {
        case .sqlite:
            try await body(self)
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                var server = self
                server.configuration.database = .postgres(url: databaseURL)
                server.configuration.fingerprintKey = Data(repeating: 7, count: 32).base64EncodedString()
                try await body(server)
            }
        }
    }

    /// The same server trusting `proxy`'s X-Forwarded-For, so a test names each request's client address.
    func trustingProxy(_ proxy: String) -> TestServer {
        var server = self
        server.configuration.trustedProxies = [proxy]
        return server
    }
}
