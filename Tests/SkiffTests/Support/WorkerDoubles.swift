import Foundation
import SkiffCore
@testable import Skiff

/// A thread-safe box tests use to record calls and hand out canned results.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []
    var all: [Value] { lock.withLock { items } }
    var count: Int { all.count }
    var last: Value? { all.last }
    func record(_ value: Value) { lock.withLock { items.append(value) } }
}

/// A result a double returns, settable from the test.
final class Stubbed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<Value, NetworkError>
    init(_ value: Result<Value, NetworkError>) { self.value = value }
    func set(_ newValue: Result<Value, NetworkError>) { lock.withLock { value = newValue } }
    func get() throws(NetworkError) -> Value { try lock.withLock { value }.get() }
}

/// Waits until the test lets it go, to hold a request in flight.
final class Gate: @unchecked Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var waiting = 0
    init() { (stream, continuation) = AsyncStream.makeStream() }
    func open() { continuation.yield(); continuation.finish() }
    /// How many requests are held here right now.
    var held: Int { lock.withLock { waiting } }
    func wait() async throws(NetworkError) {
        let hold = Hold()
        lock.withLock { waiting += 1 }
        // A request stops being held the moment its task is cancelled, not when the task next runs: a harness that
        // settles "every task but the held ones" then waits for the cancelled one to end (under a loaded CI run it
        // once returned first, and the screen still said "Logging in" after Esc).
        let release: @Sendable () -> Void = { [self] in
            lock.withLock {
                if hold.active { hold.active = false; waiting -= 1 }
            }
        }
        defer { release() }
        let opened = await withTaskCancellationHandler {
            for await _ in stream { return true }
            return false
        } onCancel: {
            release()
        }
        if !opened { throw .cancelled }
    }

    /// Whether one `wait` still counts in `held`; read and written under the gate's lock.
    private final class Hold: @unchecked Sendable {
        var active = true
    }
}

final class AuthWorkerDouble: AuthWorking, @unchecked Sendable {
    let loginResult = Stubbed<Session>(.success(Seeds.session))
    let registerResult = Stubbed<VerificationChallenge>(.success(Seeds.challenge))
    let verifyResult = Stubbed<Session>(.success(Seeds.session))
    let forgotResult = Stubbed<VerificationChallenge>(.success(Seeds.challenge))
    let resetResult = Stubbed<Void>(.success(()))
    let logoutResult = Stubbed<Void>(.success(()))
    let unlockResult = Stubbed<Void>(.success(()))
    let lockResult = Stubbed<Void>(.success(()))
    var gate: Gate?
    /// Holds only the lock call.
    var lockGate: Gate?

    let logins = Recorder<(phone: PhoneNumber, password: String)>()
    let registrations = Recorder<(Registration, String)>()
    let verifications = Recorder<(String, String, String)>()
    let forgots = Recorder<PhoneNumber>()
    let resets = Recorder<(String, String, String, String)>()
    let logouts = Recorder<Void>()
    let unlocks = Recorder<String>()
    let locks = Recorder<Void>()
    /// The lock and unlock calls, in the order they reached the server.
    let lockCalls = Recorder<String>()

    func lock() async throws(NetworkError) {
        locks.record(())
        try await lockGate?.wait()
        lockCalls.record("lock")
        try lockResult.get()
    }

    func unlock(password: String) async throws(NetworkError) {
        unlocks.record(password)
        lockCalls.record("unlock")
        try await gate?.wait()
        try unlockResult.get()
    }
    func login(phone: PhoneNumber, password: String) async throws(NetworkError) -> Session {
        logins.record((phone, password))
        try await gate?.wait()
        return try loginResult.get()
    }
    func register(_ registration: Registration, idempotencyKey: String) async throws(NetworkError) -> VerificationChallenge {
        registrations.record((registration, idempotencyKey))
        try await gate?.wait()
        return try registerResult.get()
    }
    func verifyRegistration(verificationId: String, code: String, idempotencyKey: String) async throws(NetworkError) -> Session {
        verifications.record((verificationId, code, idempotencyKey))
        try await gate?.wait()
        return try verifyResult.get()
    }
    func forgotPassword(phone: PhoneNumber) async throws(NetworkError) -> VerificationChallenge {
        forgots.record(phone)
        try await gate?.wait()
        return try forgotResult.get()
    }
    func resetPassword(verificationId: String, code: String, newPassword: String, idempotencyKey: String) async throws(NetworkError) {
        resets.record((verificationId, code, newPassword, idempotencyKey))
        try await gate?.wait()
        try resetResult.get()
    }
    func logout() async throws(NetworkError) {
        logouts.record(())
        try logoutResult.get()
    }
}

final class SessionStoreDouble: SessionStoring, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Session?
    private(set) var clears = 0
    init(_ session: Session? = nil) { stored = session }
    func load() -> Session? { lock.withLock { stored } }
    func save(_ session: Session) throws { lock.withLock { stored = session } }
    func clear() { lock.withLock { stored = nil; clears += 1 } }
}

final class PreferencesStoreDouble: PreferencesStoring, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LastLogin?
    private var hides = false
    init(_ login: LastLogin? = nil, hidesSpending: Bool = false) {
        stored = login
        hides = hidesSpending
    }
    func lastLogin() -> LastLogin? { lock.withLock { stored } }
    func saveLastLogin(_ login: LastLogin) { lock.withLock { stored = login } }
    func hidesSpending() -> Bool { lock.withLock { hides } }
    func saveHidesSpending(_ hides: Bool) { lock.withLock { self.hides = hides } }
}

final class AccountWorkerDouble: AccountWorking, @unchecked Sendable {
    let summaryResult = Stubbed<AccountSummary>(.success(Seeds.summary))
    /// Pages handed out in order of the cursor asked for: nil → first page.
    let pages = Stubbed<[String: TransactionPage]>(.success([:]))
    let pageFailure = Stubbed<Void>(.success(()))
    let calls = Recorder<(limit: Int, cursor: String?, query: String?)>()
    let spendingResult = Stubbed<MonthlySpending>(.success(Seeds.spending))
    let spendingCalls = Recorder<Void>()
    var gate: Gate?

    func summary() async throws(NetworkError) -> AccountSummary {
        try await gate?.wait()
        return try summaryResult.get()
    }
    func transactions(limit: Int, cursor: String?, query: String?) async throws(NetworkError) -> TransactionPage {
        calls.record((limit, cursor, query))
        try await gate?.wait()
        try pageFailure.get()
        return try pages.get()[cursor ?? ""] ?? TransactionPage(items: [], nextCursor: nil)
    }
    func spending() async throws(NetworkError) -> MonthlySpending {
        spendingCalls.record(())
        try await gate?.wait()
        return try spendingResult.get()
    }
}

final class CardWorkerDouble: CardWorking, @unchecked Sendable {
    let cardsResult = Stubbed<[Card]>(.success([Seeds.issuedCard]))
    let addResult = Stubbed<Card>(.success(Seeds.externalCard))
    let activationResult = Stubbed<VerificationChallenge>(.success(Seeds.challenge))
    let activateResult = Stubbed<Card>(.success({ var c = Seeds.issuedCard; c.status = .active; return c }()))
    let adds = Recorder<(NewCard, String)>()
    let activationRequests = Recorder<String>()
    let activations = Recorder<(cardID: String, last4: String, verificationId: String, code: String)>()
    var gate: Gate?

    func cards() async throws(NetworkError) -> [Card] { try cardsResult.get() }
    func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card {
        adds.record((card, idempotencyKey))
        try await gate?.wait()
        return try addResult.get()
    }
    func requestActivation(cardID: String) async throws(NetworkError) -> VerificationChallenge {
        activationRequests.record(cardID)
        return try activationResult.get()
    }
    func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card {
        activations.record((cardID, last4, verificationId, code))
        return try activateResult.get()
    }

    /// Set to fail freezing, unfreezing and removing; by default they succeed on the cards `cardsResult` lists.
    let changeFailure = Stubbed<Void>(.success(()))
    let freezes = Recorder<(frozen: Bool, cardID: String)>()
    let removals = Recorder<String>()

    func setFrozen(_ frozen: Bool, cardID: String) async throws(NetworkError) -> Card {
        freezes.record((frozen, cardID))
        try await gate?.wait()
        try changeFailure.get()
        guard var card = try cardsResult.get().first(where: { $0.id == cardID }) else { throw .notFound }
        card.frozen = frozen
        return card
    }
    func remove(cardID: String) async throws(NetworkError) {
        removals.record(cardID)
        try await gate?.wait()
        try changeFailure.get()
    }
}

final class NotificationsWorkerDouble: NotificationsWorking, @unchecked Sendable {
    let listResult = Stubbed<[AppNotification]>(.success([]))
    let markResult = Stubbed<Void>(.success(()))
    let marked = Recorder<String>()

    func notifications() async throws(NetworkError) -> [AppNotification] { try listResult.get() }
    func markRead(id: String) async throws(NetworkError) {
        marked.record(id)
        try markResult.get()
    }
}

final class CacheStoreDouble: CacheStoring, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: CachedHome] = [:]
    private(set) var clears = 0
    init(_ cached: [String: CachedHome] = [:]) { stored = cached }
    func loadHome(userID: String) -> CachedHome? { lock.withLock { stored[userID] } }
    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date) {
        lock.withLock { stored[userID] = CachedHome(snapshot: snapshot, savedAt: date) }
    }
    func clear() { lock.withLock { stored = [:]; clears += 1 } }
}

final class OutboxDouble: DevelopmentOutboxReading, @unchecked Sendable {
    let code: String?
    let asked = Recorder<(to: String, purpose: String)>()
    init(code: String?) { self.code = code }
    func latestCode(to e164: String, purpose: CodePurpose, since: Date) -> String? {
        asked.record((e164, purpose.rawValue))
        return code
    }
}
