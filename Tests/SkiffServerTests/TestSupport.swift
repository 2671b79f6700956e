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

    func addCard(
        _ client: any TestClientProtocol, token: String, number: String = Seeds.visa, cvc: String = "123",
        key: String = UUID().uuidString
    ) async throws -> Reply {
        try await client.send(
            .post, "/v1/cards",
            json: ["number": number, "expiryMonth": 12, "expiryYear": 2031, "cvc": cvc, "holderName": "Sam Carter"],
            token: token, idempotencyKey: key
        )
    }
}

extension TestServer {
    /// The same server with a larger per-address bucket, for tests about another limit that send many requests at once.
    func allowingAuthBursts(of burst: Int) -> TestServer {
        var server = self
        server.configuration.limits.authRequestBurst = burst
        return server
    }

    /// The same server trusting `proxy`'s X-Forwarded-For, so a test names each request's client address.
    func trustingProxy(_ proxy: String) -> TestServer {
        var server = self
        server.configuration.trustedProxies = [proxy]
        return server
    }
}
