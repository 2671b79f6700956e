import Foundation
import SkiffCore
import Testing
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

/// A result a double returns, settable from the test. Until it is set (by the test or by a preset), a call
/// records an issue naming the method and throws `.cancelled`: a test states what the server answers to each call
/// it makes (isowords' "unimplemented" dependencies).
final class Stubbed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<Value, NetworkError>?
    /// The double's method, as an unset call names it: `AuthWorkerDouble.login(phone:password:)`.
    let method: String
    init(_ method: String, _ value: Result<Value, NetworkError>? = nil) {
        self.method = method
        self.value = value
    }
    func set(_ newValue: Result<Value, NetworkError>) { lock.withLock { value = newValue } }
    func get() throws(NetworkError) -> Value {
        guard let value = lock.withLock({ value }) else {
            Issue.record(Comment(rawValue: "\(method) was called, but the test did not set it up: set it, or start from a preset (.succeeding, .failing, .offline, .slow)"))
            throw .cancelled
        }
        return try value.get()
    }
    /// Sets the answer of a preset: `seeded` when it succeeds.
    func answer(_ preset: WorkerPreset, seeded: Value) {
        switch preset {
        case .succeeding: set(.success(seeded))
        case .failing(let error): set(.failure(error))
        }
    }
}

/// What every call of a preset double answers.
enum WorkerPreset {
    /// What the seeded demo account gets (`Seeds`).
    case succeeding
    case failing(NetworkError)
}

/// A worker double: made unset (every call fails the test), or from a named preset.
protocol WorkerDouble: AnyObject {
    init()
    /// Holds every call until the test opens it; nil lets calls through.
    var gate: Gate? { get set }
    /// Sets every method's answer.
    func answerAll(_ preset: WorkerPreset)
}

extension WorkerDouble {
    /// Every call answers as the seeded demo account's would.
    static var succeeding: Self { preset(.succeeding) }
    /// Every call fails as a broken server's would (500).
    static var failing: Self { failing(with: .server(status: 500, detail: "Internal Server Error")) }
    /// Every call fails with `error`.
    static func failing(with error: NetworkError) -> Self { preset(.failing(error)) }
    /// Every call fails as with no network.
    static var offline: Self { failing(with: .unreachable) }
    /// Every call succeeds, but only once the test opens `gate` (a request held in flight).
    static var slow: Self {
        let double = preset(.succeeding)
        double.gate = Gate()
        return double
    }

    private static func preset(_ preset: WorkerPreset) -> Self {
        let double = Self()
        double.answerAll(preset)
        return double
    }
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

final class AuthWorkerDouble: AuthWorking, WorkerDouble, @unchecked Sendable {
    let loginResult = Stubbed<Session>("AuthWorkerDouble.login(phone:password:)")
    let registerResult = Stubbed<VerificationChallenge>("AuthWorkerDouble.register(_:idempotencyKey:)")
    let verifyResult = Stubbed<Session>("AuthWorkerDouble.verifyRegistration(verificationId:code:idempotencyKey:)")
    let forgotResult = Stubbed<VerificationChallenge>("AuthWorkerDouble.forgotPassword(phone:)")
    let resetResult = Stubbed<Void>("AuthWorkerDouble.resetPassword(verificationId:code:newPassword:idempotencyKey:)")
    let logoutResult = Stubbed<Void>("AuthWorkerDouble.logout()")
    let unlockResult = Stubbed<Void>("AuthWorkerDouble.unlock(password:)")
    let lockResult = Stubbed<Void>("AuthWorkerDouble.lock()")
    var gate: Gate?

    init() {}

    func answerAll(_ preset: WorkerPreset) {
        loginResult.answer(preset, seeded: Seeds.session)
        registerResult.answer(preset, seeded: Seeds.challenge)
        verifyResult.answer(preset, seeded: Seeds.session)
        forgotResult.answer(preset, seeded: Seeds.challenge)
        resetResult.answer(preset, seeded: ())
        logoutResult.answer(preset, seeded: ())
        unlockResult.answer(preset, seeded: ())
        lockResult.answer(preset, seeded: ())
    }
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
    private var recents: [String: [RecentRecipient]] = [:]
    func recentRecipients(userID: String) -> [RecentRecipient] { lock.withLock { recents[userID] ?? [] } }
    func saveRecentRecipients(_ recipients: [RecentRecipient], userID: String) { lock.withLock { recents[userID] = recipients } }
}

final class AccountWorkerDouble: AccountWorking, WorkerDouble, @unchecked Sendable {
    let summaryResult = Stubbed<AccountSummary>("AccountWorkerDouble.summary()")
    /// Pages handed out by the cursor asked for ("" for the first page); a cursor not listed gets an empty last page.
    let pages = Stubbed<[String: TransactionPage]>("AccountWorkerDouble.transactions(limit:cursor:query:)")
    /// Set to fail the next pages whatever `pages` holds.
    let pageFailure = Stubbed<Void>("AccountWorkerDouble.transactions(limit:cursor:query:)", .success(()))
    let calls = Recorder<(limit: Int, cursor: String?, query: String?)>()
    let spendingResult = Stubbed<MonthlySpending>("AccountWorkerDouble.spending()")
    let spendingCalls = Recorder<Void>()
    var gate: Gate?

    init() {}

    func answerAll(_ preset: WorkerPreset) {
        summaryResult.answer(preset, seeded: Seeds.summary)
        pages.answer(preset, seeded: [:])
        spendingResult.answer(preset, seeded: Seeds.spending)
    }

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

final class CardWorkerDouble: CardWorking, WorkerDouble, @unchecked Sendable {
    let cardsResult = Stubbed<[Card]>("CardWorkerDouble.cards()")
    let addResult = Stubbed<Card>("CardWorkerDouble.add(_:idempotencyKey:)")
    let activationResult = Stubbed<VerificationChallenge>("CardWorkerDouble.requestActivation(cardID:last4:)")
    let activateResult = Stubbed<Card>("CardWorkerDouble.activate(cardID:last4:verificationId:code:)")
    let adds = Recorder<(NewCard, String)>()
    let activationRequests = Recorder<(cardID: String, last4: String)>()
    let activations = Recorder<(cardID: String, last4: String, verificationId: String, code: String)>()
    var gate: Gate?

    init() {}

    func answerAll(_ preset: WorkerPreset) {
        cardsResult.answer(preset, seeded: [Seeds.issuedCard])
        addResult.answer(preset, seeded: Seeds.externalCard)
        activationResult.answer(preset, seeded: Seeds.challenge)
        activateResult.answer(preset, seeded: { var card = Seeds.issuedCard; card.status = .active; return card }())
        if case .failing(let error) = preset { changeFailure.set(.failure(error)) }
    }

    func cards() async throws(NetworkError) -> [Card] { try cardsResult.get() }
    func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card {
        adds.record((card, idempotencyKey))
        try await gate?.wait()
        return try addResult.get()
    }
    func requestActivation(cardID: String, last4: String) async throws(NetworkError) -> VerificationChallenge {
        activationRequests.record((cardID, last4))
        return try activationResult.get()
    }
    func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card {
        activations.record((cardID, last4, verificationId, code))
        return try activateResult.get()
    }

    /// Set to fail freezing, unfreezing and removing; by default they succeed on the cards `cardsResult` lists.
    let changeFailure = Stubbed<Void>("CardWorkerDouble.setFrozen(_:cardID:) and remove(cardID:)", .success(()))
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

final class NotificationsWorkerDouble: NotificationsWorking, WorkerDouble, @unchecked Sendable {
    let listResult = Stubbed<[AppNotification]>("NotificationsWorkerDouble.notifications()")
    let markResult = Stubbed<Void>("NotificationsWorkerDouble.markRead(id:)")
    let marked = Recorder<String>()
    var gate: Gate?

    init() {}

    func answerAll(_ preset: WorkerPreset) {
        listResult.answer(preset, seeded: [])
        markResult.answer(preset, seeded: ())
    }

    func notifications() async throws(NetworkError) -> [AppNotification] {
        try await gate?.wait()
        return try listResult.get()
    }
    func markRead(id: String) async throws(NetworkError) {
        marked.record(id)
        try await gate?.wait()
        try markResult.get()
    }
}

/// The live event stream, driven by the test: `send` hands an update to the stream the app opened last.
final class LiveEventsWorkerDouble: LiveEventsWorking, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: AsyncStream<LiveUpdate>.Continuation?
    private(set) var starts = 0

    init() {}

    func updates() -> AsyncStream<LiveUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveUpdate.self)
        lock.withLock {
            self.continuation = continuation
            starts += 1
        }
        // As the live worker says once its request is answered: what failed while there was no stream is fetched again.
        continuation.yield(.online)
        return stream
    }

    /// Whether the app holds a stream open now.
    var isOpen: Bool {
        lock.withLock {
            guard let continuation else { return false }
            if case .terminated = continuation.yield(.online) { return false }
            return true
        }
    }

    func send(_ update: LiveUpdate) {
        lock.withLock { _ = continuation?.yield(update) }
    }
}

final class CacheStoreDouble: CacheStoring, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: CachedHome] = [:]
    private(set) var clears = 0
    private var saveCount = 0
    /// How many times `saveHome` was called.
    var saves: Int { lock.withLock { saveCount } }
    init(_ cached: [String: CachedHome] = [:]) { stored = cached }
    func loadHome(userID: String) -> CachedHome? { lock.withLock { stored[userID] } }
    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date) {
        lock.withLock {
            stored[userID] = CachedHome(snapshot: snapshot, savedAt: date)
            saveCount += 1
        }
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

final class TransferWorkerDouble: TransferWorking, WorkerDouble, @unchecked Sendable {
    let recipientResult = Stubbed<Recipient>("TransferWorkerDouble.findRecipient(phone:)")
    let stepUpResult = Stubbed<StepUpProof>("TransferWorkerDouble.stepUp(password:recipientID:amount:)")
    let sendResult = Stubbed<SentTransfer>("TransferWorkerDouble.send(_:idempotencyKey:)")
    let lookups = Recorder<PhoneNumber>()
    let stepUps = Recorder<String>()
    /// The transfer each proof was asked for: its payee and amount.
    let stepUpTargets = Recorder<(recipientID: String, amount: Money)>()
    let sends = Recorder<(order: TransferOrder, key: String)>()
    let topUpResult = Stubbed<TopUpProgress>("TransferWorkerDouble.topUp(_:idempotencyKey:)")
    /// What each question about a waiting top-up answers, in turn; the last one again once they run out.
    let progressResults = Stubbed<[Result<TopUpProgress, NetworkError>]>("TransferWorkerDouble.topUpProgress(id:)")
    let topUps = Recorder<(order: TopUpOrder, key: String)>()
    let progressAsked = Recorder<String>()
    /// Holds only the questions about a waiting top-up (the top-up itself passes).
    var progressGate: Gate?
    var gate: Gate?

    init() {}

    func answerAll(_ preset: WorkerPreset) {
        recipientResult.answer(preset, seeded: Seeds.recipient)
        stepUpResult.answer(preset, seeded: StepUpProof(token: "step-up-proof"))
        sendResult.answer(preset, seeded: Seeds.sentTransfer)
        topUpResult.answer(preset, seeded: .added(Seeds.addedMoney))
        progressResults.answer(preset, seeded: [.success(.added(Seeds.addedMoney))])
    }

    func topUp(_ order: TopUpOrder, idempotencyKey: String) async throws(NetworkError) -> TopUpProgress {
        topUps.record((order, idempotencyKey))
        try await gate?.wait()
        return try topUpResult.get()
    }
    func topUpProgress(id: String) async throws(NetworkError) -> TopUpProgress {
        let index = progressAsked.count
        progressAsked.record(id)
        try await gate?.wait()
        try await progressGate?.wait()
        let results = try progressResults.get()
        guard let result = results.indices.contains(index) ? results[index] : results.last else { throw .cancelled }
        return try result.get()
    }

    func findRecipient(phone: PhoneNumber) async throws(NetworkError) -> Recipient {
        lookups.record(phone)
        try await gate?.wait()
        return try recipientResult.get()
    }
    func stepUp(password: String, recipientID: String, amount: Money) async throws(NetworkError) -> StepUpProof {
        stepUps.record(password)
        stepUpTargets.record((recipientID, amount))
        try await gate?.wait()
        return try stepUpResult.get()
    }
    func send(_ order: TransferOrder, idempotencyKey: String) async throws(NetworkError) -> SentTransfer {
        sends.record((order, idempotencyKey))
        try await gate?.wait()
        return try sendResult.get()
    }
}
