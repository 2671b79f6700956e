import Benchmark
import Foundation
import Logging
import SkiffCore
import TerminalUI
@testable import Skiff

// Home as the app builds it (`SkiffApp` with its coordinators, scenes and the real Presenter and kit), on a headless
// 100×30 terminal, signed in to an account of 1,000,000 transactions served by an in-memory worker: what a key
// costs in the app itself, without the network or a terminal. `@testable` needs the Skiff module built for testing:
// debug builds are; for a release run, `SKIFF_BENCHMARK_TESTABLE=1` (see CONTRIBUTING.md).

/// Transactions `0..<count`, newest first, made on request: page by page as the server would answer them.
struct MillionTransactions: AccountWorking {
    static let count = 1_000_000
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let merchants = ["Café Zoë", "Lyft", "Whole Foods", "Shell", "Spotify", "Amazon", "Blue Bottle"]
    static let categories = ["Coffee", "Transport", "Groceries", "Fuel", "Music", "Shopping", "Coffee"]
    let user: User

    static func transaction(_ index: Int) -> Transaction {
        Transaction(
            id: "t_\(index)", amount: Money(amountMinor: -Int64(index % 9_000 + 100), currency: "USD"),
            merchant: merchants[index % merchants.count], category: categories[index % categories.count],
            createdAt: now.addingTimeInterval(-Double(index) * 60)
        )
    }

    func summary() async throws(NetworkError) -> AccountSummary {
        AccountSummary(user: user, balance: Money(amountMinor: 1_234_567, currency: "USD"), unreadNotifications: 2)
    }

    func transactions(limit: Int, cursor: String?, query: String?) async throws(NetworkError) -> TransactionPage {
        let start = cursor.flatMap(Int.init) ?? 0
        let end = min(start + limit, Self.count)
        return TransactionPage(
            items: (start..<end).map(Self.transaction), nextCursor: end < Self.count ? String(end) : nil
        )
    }

    func spending() async throws(NetworkError) -> MonthlySpending {
        MonthlySpending(
            month: "2026-11",
            categories: [
                .init(name: "Groceries", amount: Money(amountMinor: 41_250, currency: "USD")),
                .init(name: "Coffee", amount: Money(amountMinor: 1_990, currency: "USD")),
            ],
            totals: [Money(amountMinor: 43_240, currency: "USD")], previousMonth: "2026-10",
            previousDays: 1...22, previousDaysTotals: [Money(amountMinor: 38_900, currency: "USD")]
        )
    }
}

/// Two cards; nothing else is asked of cards while scrolling.
struct TwoCards: CardWorking {
    static let cards = [
        Card(id: "c_1", kind: .issued, brand: .visa, last4: "0005", expiryMonth: 11, expiryYear: 2030, holderName: "ALEX RIVERA", status: .active),
        Card(id: "c_2", kind: .external, brand: .mastercard, last4: "4444", expiryMonth: 4, expiryYear: 2029, holderName: "ALEX RIVERA", status: .active),
    ]
    func cards() async throws(NetworkError) -> [Card] { Self.cards }
    func add(_ card: NewCard, idempotencyKey: String) async throws(NetworkError) -> Card { throw .unreachable }
    func requestActivation(cardID: String, last4: String) async throws(NetworkError) -> VerificationChallenge { throw .unreachable }
    func activate(cardID: String, last4: String, verificationId: String, code: String) async throws(NetworkError) -> Card {
        throw .unreachable
    }
    func setFrozen(_ frozen: Bool, cardID: String) async throws(NetworkError) -> Card { throw .unreachable }
    func remove(cardID: String) async throws(NetworkError) { throw .unreachable }
}

/// Nothing to reach: scrolling Home never signs in, out or reads notifications.
struct Offline: AuthWorking, NotificationsWorking, TransferWorking {
    func findRecipient(phone: PhoneNumber) async throws(NetworkError) -> Recipient { throw .unreachable }
    func stepUp(password: String, recipientID: String, amount: Money) async throws(NetworkError) -> StepUpProof {
        throw .unreachable
    }
    func send(_ order: TransferOrder, idempotencyKey: String) async throws(NetworkError) -> SentTransfer { throw .unreachable }
    func topUp(_ order: TopUpOrder, idempotencyKey: String) async throws(NetworkError) -> TopUpProgress { throw .unreachable }
    func topUpProgress(id: String) async throws(NetworkError) -> TopUpProgress { throw .unreachable }
    func login(phone: PhoneNumber, password: String) async throws(NetworkError) -> Session { throw .unreachable }
    func register(_ registration: Registration, idempotencyKey: String) async throws(NetworkError) -> VerificationChallenge {
        throw .unreachable
    }
    func verifyRegistration(verificationId: String, code: String, idempotencyKey: String) async throws(NetworkError) -> Session {
        throw .unreachable
    }
    func forgotPassword(phone: PhoneNumber) async throws(NetworkError) -> VerificationChallenge { throw .unreachable }
    func resetPassword(verificationId: String, code: String, newPassword: String, idempotencyKey: String) async throws(NetworkError) {
        throw .unreachable
    }
    func logout() async throws(NetworkError) { throw .unreachable }
    func lock() async throws(NetworkError) { throw .unreachable }
    func unlock(password: String) async throws(NetworkError) { throw .unreachable }
    func notifications() async throws(NetworkError) -> [AppNotification] { throw .unreachable }
    func markRead(id: String) async throws(NetworkError) { throw .unreachable }
}

/// Keeps the last view model the presenter made, as the transactions' view controller would receive it.
final class LastViewModel: TransactionsDisplayLogic {
    var update: Transactions.UpdateViewModel?
    func displayUpdate(viewModel: Transactions.UpdateViewModel) { update = viewModel }
    func displayShowCategory(viewModel: Transactions.ShowCategory.ViewModel) {}
}

/// The app signed in and settled on Home, its stores in a fresh folder.
@MainActor
func homeApp() async throws -> SkiffApp {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-home-bench-\(UUID().uuidString)")
    let paths = AppPaths.rooted(at: folder)
    let user = User(id: "u_1", fullName: "Alex Rivera", countryCode: "+1", phoneNumber: "2025550143")
    let sessions = SessionStore(file: paths.sessionFile)
    try sessions.save(Session(token: "tok_bench", expiresAt: Date().addingTimeInterval(12 * 3600), user: user))
    let dependencies = AppDependencies(
        auth: Offline(), account: MillionTransactions(user: user), cards: TwoCards(), notifications: Offline(),
        transfers: Offline(),
        sessions: sessions, preferences: PreferencesStore(file: paths.preferencesFile),
        cache: try CacheStore(file: paths.cacheDatabase, logger: Logger(label: "bench")), outbox: nil, tokens: SessionTokenBox(), demo: nil,
        serverDescription: "an in-memory account"
    )
    let terminal = HeadlessTerminal(width: 100, height: 30)
    let app = SkiffApp(terminal: terminal, dependencies: dependencies, environment: ["LANG": "C.UTF-8"])
    // Drawn as in a real terminal: the headless terminal's check of every partial frame against a whole one is off.
    app.application.verifiesPartialFrames = false
    app.coordinator.start()
    try app.application.start()
    await app.application.settle()
    app.application.renderIfNeeded()
    guard terminal.lines.joined().contains("Balance $") else {
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "Home did not show:\n\(terminal.lines.joined(separator: "\n"))"])
    }
    return app
}

/// The apps the key benchmarks step through, made once each (Home opens with the list focused).
@MainActor
final class HomeApps {
    static let shared = HomeApps()
    private var apps: [String: SkiffApp] = [:]

    func app(for name: String) async throws -> SkiffApp {
        if let app = apps[name] { return app }
        let app = try await homeApp()
        apps[name] = app
        return app
    }
}

let benchmarks: @Sendable () -> Void = {
    // `SKIFF_BENCH_SECONDS` runs each benchmark longer, to attach a profiler (`perf record -p`) meanwhile.
    let seconds = ProcessInfo.processInfo.environment["SKIFF_BENCH_SECONDS"].flatMap(Int.init) ?? 2
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(seconds), maxIterations: seconds * 100_000
    )

    // One app per key, kept across samples: each sample is one step further down the million rows, so the steps
    // include the pages fetched and let go on the way, as a person holding the key would cause.
    for (key, name) in [(Key.down, "Down"), (Key.pageDown, "PageDown")] {
        Benchmark("Home: \(name) to a finished frame, 1,000,000 transactions (100x30)") { @MainActor (benchmark: Benchmark) async throws in
            let app = try await HomeApps.shared.app(for: name)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                app.application.send(key)
                await app.application.settle()
                app.application.renderIfNeeded()
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Home presenter: an update with three pages of 50 loaded, 1,000,000 in the account") { @MainActor (benchmark: Benchmark) async in
        let presenter = TransactionsPresenter()
        let display = LastViewModel()
        presenter.viewController = display
        var state = Transactions.State()
        state.transactions = TransactionWindow(firstPage: (0..<50).map(MillionTransactions.transaction), nextCursor: "50")
        for start in [50, 100] {
            state.transactions.append(
                (start..<start + 50).map(MillionTransactions.transaction), fetchedWith: String(start), next: String(start + 50)
            )
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            presenter.presentUpdate(response: .init(state: state))
            blackHole(display.update)
        }
        benchmark.stopMeasurement()
    }
}
