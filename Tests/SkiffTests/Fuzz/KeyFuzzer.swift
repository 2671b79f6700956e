import Foundation
import Logging
import SkiffCore
import SkiffServer
import TerminalUI
@testable import Skiff

/// A seeded random walk of keys over the whole wallet, headless and in-process, against a real server.
///
/// The walk mixes random input (printable, wide and control characters, editing and navigation keys, pastes of
/// up to 10,000 characters sent as the terminal sends them, bytes that are not keys, resizes down to 20×6)
/// with "intents": short scripted bursts that follow the app's routes (log in as the demo account, register,
/// verify with the texted code, add cards with valid numbers, activate, open every screen, log out), with
/// random keys slipped in between. After every key it lets the work the key started finish (within a time
/// limit) and checks `FuzzInvariants`. A failure names the seed and the key's index, so
/// `SKIFF_FUZZ_SEED=<seed> SKIFF_FUZZ_KEYS=<index + 1>` replays it.
@MainActor
final class KeyFuzzer {
    /// What the walk found wrong, with what it takes to replay it.
    struct Failure: Error, CustomStringConvertible {
        var seed: UInt64
        var keyIndex: Int
        var problem: String
        var recentKeys: [String]
        var screen: String

        var description: String {
            """
            Key fuzzing failed at seed \(seed), key #\(keyIndex): \(problem)
            Replay: SKIFF_FUZZ_SEED=\(seed) SKIFF_FUZZ_KEYS=\(keyIndex + 1) swift test --filter KeyFuzzTests
            Last keys: \(recentKeys.joined(separator: " "))
            Screen:
            \(screen)
            """
        }
    }

    /// One input the walk sends.
    enum Input: CustomStringConvertible {
        case key(Key)
        /// Raw bytes as a terminal sends them (pastes, escape sequences, garbage), through the app's decoder.
        case bytes([UInt8], label: String)
        case resize(width: Int, height: Int)

        var description: String {
            switch self {
            case .key(.character(let character)): "'\(character)'"
            case .key(let key): key.label
            case .bytes(_, let label): label
            case .resize(let width, let height): "resize(\(width)×\(height))"
            }
        }
    }

    /// How long the work of one key may take before the walk calls it a hang: well past the app's own 10 s timeout,
    /// so that a machine loaded by other builds (its first key waited 20 s for a thread) is not taken for a hang.
    static let stepLimit: Duration = .seconds(60)
    static let fullSize = Size(width: 100, height: 30)

    let seed: UInt64
    private(set) var keyIndex = 0
    private(set) var restarts = 0
    private(set) var cardsAdded = 0
    private(set) var addCardAttempts = 0
    private(set) var screensSeen: Set<String> = []
    private let keyBudget: Int
    private var random: SplitMix64
    private let server: FuzzServer
    private var terminal: HeadlessTerminal
    private var app: SkiffApp
    private var ledger = SecretLedger()
    private lazy var taps = DisplayTaps { [weak self] viewModel in self?.inspect(viewModel) }
    private var viewModelLeak: String?
    private var recentKeys: [String] = []
    private var registeredPhones: [String] = []

    private init(seed: UInt64, keys: Int, server: FuzzServer) throws {
        self.seed = seed
        keyBudget = keys
        random = SplitMix64(seed: seed)
        self.server = server
        terminal = HeadlessTerminal(width: Self.fullSize.width, height: Self.fullSize.height)
        app = try server.makeApp(on: terminal)
    }

    /// Walks `keys` keys from a fresh server and a fresh app; throws the first `Failure`.
    static func run(seed: UInt64, keys: Int) async throws -> KeyFuzzer {
        let server = try await FuzzServer.start()
        let fuzzer: KeyFuzzer
        do {
            fuzzer = try KeyFuzzer(seed: seed, keys: keys, server: server)
        } catch {
            await server.stop()
            throw error
        }
        do {
            try await fuzzer.walk()
        } catch {
            fuzzer.app.application.quit()
            await server.stop()
            throw error
        }
        fuzzer.app.application.quit()
        await server.stop()
        return fuzzer
    }

    private var application: Application { app.application }
    private var navigation: NavigationController { application.rootViewController as! NavigationController }
    private var top: ViewController? { navigation.visibleViewController }
    private var hasKeysLeft: Bool { keyIndex < keyBudget }

    private func walk() async throws {
        app.coordinator.start()
        try application.start()
        try installTaps()
        guard await settled() else { throw failure("the first screen did not settle within \(Self.stepLimit)") }
        try check()
        while hasKeysLeft {
            if random.chance(0.4) {
                try await runIntent()
            } else {
                try await step(randomInput())
            }
        }
    }

    // MARK: One step

    /// Sends one input, waits (bounded) for the work it started, then checks every invariant.
    private func step(_ input: Input) async throws {
        guard hasKeysLeft else { return }
        recentKeys.append(input.description)
        if recentKeys.count > 40 { recentKeys.removeFirst() }
        switch input {
        case .key(let key):
            application.send(key)
        case .bytes(let bytes, _):
            terminal.type(bytes)
            application.processPendingInput()
            application.flushPendingInput()
        case .resize(let width, let height):
            terminal.resize(width: width, height: height)
            application.send(.resize)
        }
        try installTaps()
        guard await settled() else { throw failure("the work of the key did not finish within \(Self.stepLimit) (a hang)") }
        keyIndex += 1
        if application.exitStatus != nil {
            try await restart()
            return
        }
        try check()
    }

    /// Waits for every tracked task the last key started, but never longer than `stepLimit`.
    private func settled() async -> Bool {
        let application = application
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = ResumeOnce(continuation)
            Task { @MainActor in
                await application.settle()
                once.resume(true)
            }
            Task { @MainActor in
                try? await Task.sleep(for: Self.stepLimit)
                once.resume(false)
            }
        }
        if finished { application.render() }
        return finished
    }

    /// The app quit (q, Ctrl-Q, Ctrl-C): start it again on the same files and server, as a person would.
    private func restart() async throws {
        restarts += 1
        let size = terminal.size
        terminal = HeadlessTerminal(width: size.width, height: size.height)
        app = try server.makeApp(on: terminal)
        app.coordinator.start()
        try application.start()
        try installTaps()
        guard await settled() else { throw failure("the app did not settle after a restart") }
        try check()
    }

    /// A tap behind every new screen; a scene's screen the taps cannot see into fails the walk (its view models
    /// would go unchecked).
    private func installTaps() throws {
        if let why = taps.install(on: navigation) { throw failure("the fuzzer cannot inspect a screen's view models: \(why)") }
    }

    private func check() throws {
        if let top { screensSeen.insert(String(describing: type(of: top))) }
        if let leak = viewModelLeak {
            throw failure("a view model carried \(leak)")
        }
        let cardFlow: (ViewController) -> Bool = { $0 is AddCardViewController || $0 is HomeViewController }
        if let problem = FuzzInvariants.problem(in: application, terminal: terminal, ledger: ledger, cardFlow: cardFlow) {
            throw failure(problem)
        }
    }

    private func inspect(_ viewModel: Any) {
        let cardFlow = viewModel is AddCard.Submit.ViewModel || viewModel is AddCard.Load.ViewModel
            || viewModel is AddCard.NumberChanged.ViewModel || viewModel is AddCard.ValidateField.ViewModel
            || viewModel is AddCard.Back.ViewModel || viewModel is Home.Update.ViewModel
        guard viewModelLeak == nil, let leak = ledger.leak(inViewModel: viewModel, securityCodes: cardFlow) else { return }
        viewModelLeak = "\(leak) in \(type(of: viewModel))"
    }

    private func failure(_ problem: String) -> Failure {
        Failure(seed: seed, keyIndex: keyIndex, problem: problem, recentKeys: recentKeys, screen: terminal.text)
    }

    // MARK: Random input

    private static let printable = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    private static let wide: [Character] = ["漢", "字", "日", "本", "한", "글", "😀", "👍🏽", "👨‍👩‍👧", "🇫🇷", "é", "e\u{301}", "❤️", "ｗ", "🀄"]
    private static let controlLetters = Array("abdefghijklmnoprstuvwxy")
    private static let moves: [Key] = [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown]
    private static let edits: [Key] = [.backspace, .delete, .insert, .function(1), .function(5), .function(12)]
    private static let escapeSequences: [[UInt8]] = [
        Array("\u{1B}[A".utf8), Array("\u{1B}OB".utf8), Array("\u{1B}[5~".utf8), Array("\u{1B}[6~".utf8),
        Array("\u{1B}[Z".utf8), Array("\u{1B}[1;5C".utf8), Array("\u{1B}[".utf8), Array("\u{1B}[99;99;99R".utf8),
        Array("\u{1B}O".utf8), Array("\u{1B}\u{1B}".utf8), [0xC3], [0xF0, 0x9F], [0xFF, 0xFE],
    ]

    private func randomInput() -> Input {
        let roll = random.unit()
        switch roll {
        case ..<0.30: return .key(.character(random.pick(Self.printable)))
        case ..<0.36: return .key(.character(random.pick(Self.wide)))
        case ..<0.46: return .key(random.pick(Self.moves))
        case ..<0.56: return .key(random.chance(0.6) ? .tab : .backTab)
        case ..<0.62: return .key(.escape)
        case ..<0.70: return .key(.enter)
        case ..<0.75: return .key(random.pick(Self.edits))
        case ..<0.80: return .key(.ctrl(random.pick(Self.controlLetters)))
        case ..<0.81: return .key(random.pick([.ctrl("c"), .ctrl("q"), .ctrl("z"), .character("q"), .character("?")]))
        case ..<0.85: return paste(randomText(length: random.int(in: 1...40)), label: "paste(short)")
        case ..<0.853: return paste(randomText(length: 10_000), label: "paste(10000)")
        case ..<0.87: return .bytes(random.pick(Self.escapeSequences), label: "bytes(escape)")
        case ..<0.88: return .bytes((0..<random.int(in: 1...8)).map { _ in UInt8(random.int(in: 0...255)) }, label: "bytes(random)")
        case ..<0.92: return randomResize()
        default: return .key(.character(Character(String(random.int(in: 0...9)))))
        }
    }

    private func randomText(length: Int) -> String {
        var text = ""
        for _ in 0..<length {
            switch random.unit() {
            case ..<0.7: text.append(random.pick(Self.printable))
            case ..<0.85: text.append(random.pick(Self.wide))
            case ..<0.95: text.append("\n")
            default: text.append("\t")
            }
        }
        return text
    }

    /// A bracketed paste, as a terminal sends one.
    private func paste(_ text: String, label: String) -> Input {
        .bytes(Array("\u{1B}[200~".utf8) + Array(text.utf8) + Array("\u{1B}[201~".utf8), label: label)
    }

    private func randomResize() -> Input {
        if random.chance(0.5) { return .resize(width: Self.fullSize.width, height: Self.fullSize.height) }
        if random.chance(0.3) { return .resize(width: 20, height: 6) }
        return .resize(width: random.int(in: 20...140), height: random.int(in: 6...45))
    }

    // MARK: Intents

    /// Runs the intent of the screen on top; when it leads to another screen, often follows on with that one's.
    private func runIntent(depth: Int = 0) async throws {
        let before = top
        try await runOneIntent()
        if depth < 4, hasKeysLeft, top !== before, random.chance(0.7) {
            try await runIntent(depth: depth + 1)
        }
    }

    private func runOneIntent() async throws {
        if terminal.size != Self.fullSize, random.chance(0.7) {
            try await step(.resize(width: Self.fullSize.width, height: Self.fullSize.height))
        }
        switch top {
        case let login as LoginViewController:
            switch random.unit() {
            case ..<0.65: try await logIn(login)
            case ..<0.85: try await step(.key(.ctrl("n")))
            default: try await step(.key(.ctrl("p")))
            }
        case let register as RegisterViewController:
            try await registerAccount(register)
        case let verify as VerifyPhoneViewController:
            try await verifyPhone(verify)
        case let home as HomeViewController:
            try await useHome(home)
        case let screen as AddCardViewController:
            if random.chance(0.85) { try await addCard(screen) } else { try await step(.key(.escape)) }
        case let activate as ActivateCardViewController:
            try await activateCard(activate)
        case let send as SendMoneyViewController:
            try await sendMoney(send)
        case let screen as TopUpViewController:
            try await topUp(screen)
        case is NotificationsViewController:
            if random.chance(0.4) { try await step(.key(.character("m"))) }
            try await step(.key(.escape))
        default:
            try await step(.key(.escape))
        }
    }

    /// A random key slipped into an intent now and then.
    private func noise() async throws {
        if random.chance(0.08) { try await step(randomInput()) }
    }

    /// Moves the focus to `field` with Tab (as a person would); false when the screen went away or it cannot.
    private func focus(_ field: View, on screen: ViewController) async throws -> Bool {
        for _ in 0...(screen.focusableViews.count + 1) {
            guard hasKeysLeft, top === screen else { return false }
            if screen.focusedView === field { return true }
            try await step(.key(.tab))
        }
        return top === screen && screen.focusedView === field
    }

    /// Empties `field` and types `text` into it (sometimes pasted whole); false when the screen went away.
    private func fill(_ field: TextField, with text: String, on screen: ViewController) async throws -> Bool {
        guard try await focus(field, on: screen) else { return false }
        try await step(.key(.end))
        try await step(.key(.ctrl("u")))
        if random.chance(0.2) {
            try await step(paste(text, label: "paste(\(text.count))"))
        } else {
            for character in text {
                guard top === screen, screen.focusedView === field else { return false }
                try await step(.key(.character(character)))
                try await noise()
            }
        }
        return top === screen
    }

    private func logIn(_ login: LoginViewController) async throws {
        let demo = DemoCredentials.demo
        let wrong = random.chance(0.1)
        guard try await fill(login.countryCode, with: demo.countryCode, on: login),
              try await fill(login.phoneNumber, with: demo.phoneNumber, on: login),
              try await fill(login.password, with: wrong ? "not-the-password" : demo.password, on: login)
        else { return }
        try await step(.key(.enter))
    }

    private func registerAccount(_ register: RegisterViewController) async throws {
        let phone = String(format: "202555%04d", random.int(in: 2000...9999))
        guard try await fill(register.countryCode, with: "+1", on: register),
              try await fill(register.phoneNumber, with: phone, on: register),
              try await fill(register.fullName, with: random.pick(["Sam Lee", "Zoë Ångström", "李小龍", "Ana María Núñez"]), on: register),
              try await fill(register.password, with: "harbour-lights-9", on: register),
              try await fill(register.confirmPassword, with: "harbour-lights-9", on: register)
        else { return }
        registeredPhones.append("+1" + phone)
        try await step(.key(.enter))
    }

    private func verifyPhone(_ verify: VerifyPhoneViewController) async throws {
        let sentTo = registeredPhones.last ?? ""
        guard let code = server.latestCode(to: sentTo, purpose: .registration), random.chance(0.9) else {
            try await step(.key(random.chance(0.5) ? .escape : .ctrl("r")))
            return
        }
        guard try await fill(verify.code, with: code, on: verify) else { return }
        try await step(.key(.enter))
    }

    private func useHome(_ home: HomeViewController) async throws {
        switch random.unit() {
        case ..<0.25: try await step(.key(.character("a")))
        case ..<0.28: try await step(.key(.character("t")))
        case ..<0.38: try await step(.key(.character("v")))
        case ..<0.50: try await step(.key(.character("n")))
        case ..<0.64:
            for _ in 0..<random.int(in: 0...6) { try await step(.key(random.pick([.down, .down, .pageDown, .up]))) }
            try await step(.key(.enter))
        case ..<0.74:
            try await step(.key(.character("/")))
            guard top === home else { return }
            for character in random.pick(["coffee", "Amazon", "zz", "漢字", "4"]) {
                try await step(.key(.character(character)))
            }
            try await step(.key(random.chance(0.5) ? .enter : .escape))
        case ..<0.77: try await step(.key(.character("r")))
        case ..<0.80: try await step(.key(.character("s")))
        case ..<0.90: try await step(.key(.character("L")))
        default:
            for _ in 0..<random.int(in: 1...12) { try await step(.key(random.pick([.pageDown, .pageUp, .down, .end, .home]))) }
        }
    }

    private func addCard(_ addCard: AddCardViewController) async throws {
        addCardAttempts += 1
        let card = FuzzCards.card(using: &random)
        ledger.addNumber(card.number)
        ledger.addSecurityCode(card.securityCode)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date()) % 100 + random.int(in: 1...6)
        let expiry = String(format: "%02d%02d", random.int(in: 1...12), year)
        guard try await fill(addCard.number, with: card.number, on: addCard),
              try await fill(addCard.holderName, with: random.pick(["Alex Rivera", "Zoë Ångström", "J Smith"]), on: addCard),
              try await fill(addCard.expiry, with: expiry, on: addCard),
              try await fill(addCard.securityCode, with: card.securityCode, on: addCard)
        else { return }
        try await step(.key(.enter))
        try await noise()
        guard top === addCard else { return }
        try await step(.key(.enter))
        if top !== addCard { cardsAdded += 1 }
    }

    /// Fills Send money (to the demo account, or to one's own number), continues, and often confirms or goes back.
    private func sendMoney(_ send: SendMoneyViewController) async throws {
        guard send.stage == .form, random.chance(0.85) else {
            try await step(.key(random.chance(0.6) ? .enter : .escape))
            return
        }
        guard try await fill(send.phoneNumber, with: random.pick([DemoCredentials.demo.phoneNumber, "202 555 0100", "12"]), on: send),
              try await fill(send.amount, with: random.pick(["12.5", "$1,200", "0", "abc", "150", "12.345", "0.01"]), on: send),
              try await fill(send.note, with: random.pick(["", "Lunch", "漢字 🇫🇷", String(repeating: "x", count: 150)]), on: send)
        else { return }
        try await step(.key(.enter))
        try await noise()
        guard top === send, send.stage == .confirm else { return }
        if random.chance(0.3) {
            try await step(.key(.escape))
            return
        }
        if send.password.isHidden {
            // Enter lands on Change (back to the form); `y` sends.
            try await step(.key(random.chance(0.8) ? .character("y") : .enter))
        } else {
            _ = try await fill(send.password, with: DemoCredentials.demo.password, on: send)
            try await step(.key(.enter))
        }
        try await noise()
        if top === send { try await step(.key(random.chance(0.5) ? .enter : .escape)) }
    }

    /// Top up one stage at a time: a card (any: a frozen or expired one is refused), an amount (some refused), the
    /// confirmation, the wait for the card's bank (Esc); or back.
    private func topUp(_ screen: TopUpViewController) async throws {
        switch screen.stage {
        case .card:
            guard screen.cards.numberOfRows > 0, random.chance(0.85) else {
                try await step(.key(.escape))
                return
            }
            for _ in 0..<random.int(in: 0...3) { try await step(.key(random.pick([.down, .up]))) }
            try await step(.key(.enter))
        case .amount:
            guard random.chance(0.9) else {
                try await step(.key(.escape))
                return
            }
            guard try await fill(screen.amount, with: random.pick(["50", "$250", "0", "abc", "12.345", "$1,000.5", "20000"]), on: screen)
            else { return }
            try await step(.key(.enter))
            try await noise()
            if top === screen, screen.stage == .confirm { try await step(.key(random.chance(0.75) ? .enter : .escape)) }
        case .bank:
            // The card's bank waits for its holder, whom the fuzzer is not: now and then it waits a moment, else Esc.
            try await step(.key(random.chance(0.3) ? .character("x") : .escape))
        case .confirm, .receipt:
            try await step(.key(random.chance(0.7) ? .enter : .escape))
        }
    }

    private func activateCard(_ activate: ActivateCardViewController) async throws {
        guard let last4 = Self.cardLastFour(of: activate), random.chance(0.85) else {
            try await step(.key(.escape))
            return
        }
        guard try await fill(activate.last4, with: last4, on: activate) else { return }
        try await step(.key(.enter))
        guard top === activate,
              let phone = registeredPhoneOrDemo(),
              let code = server.latestCode(to: phone, purpose: .cardActivation)
        else { return }
        guard try await fill(activate.code, with: code, on: activate) else { return }
        try await step(.key(.enter))
    }

    /// The card being activated, which its Interactor keeps private.
    private static func cardLastFour(of screen: ActivateCardViewController) -> String? {
        guard let interactor = screen.interactor else { return nil }
        let card = Mirror(reflecting: interactor).children.first { $0.label == "card" }?.value as? Card
        return card?.last4
    }

    /// Codes go to the signed-in person's phone: the demo account's, or the last one registered.
    private func registeredPhoneOrDemo() -> String? {
        let home = navigation.viewControllers.first as? HomeViewController
        guard let interactor = home?.interactor else { return nil }
        let session = Mirror(reflecting: interactor).children.first { $0.label == "session" }?.value as? Session
        guard let user = session?.user else { return nil }
        return (try? PhoneNumber.parse(countryCode: user.countryCode, number: user.phoneNumber).e164)
    }
}

/// Resumes a continuation once, whichever of two racing tasks gets there first.
@MainActor
private final class ResumeOnce {
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: Bool) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}

/// The walk's choices, from the seeded `SplitMix64`, so a seed replays.
extension SplitMix64 {
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[Int.random(in: elements.indices, using: &self)] }
}

/// The real server the walk runs against: SQLite in a temporary folder, the demo account, bcrypt cost 4, and
/// limits raised so that the walk's many sign-ins and codes are not refused (the walk is one client address).
final class FuzzServer: Sendable {
    let instance: SkiffServerInstance
    let folder: URL
    let paths: AppPaths

    static func start() async throws -> FuzzServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-fuzz-\(UUID().uuidString)")
        let paths = AppPaths.rooted(at: folder)
        _ = try paths.preparePrivateFolders()
        var limits = SkiffServerLimits()
        limits.authRequestBurst = 1_000_000
        limits.loginFailuresBeforeLockout = 1_000_000
        limits.codesPerAddressPerHour = 1_000_000
        limits.codesPerNumberPerHour = 1_000_000
        limits.codesPerNumberPerDay = 1_000_000
        limits.wrongCodesPerNumberPerDay = 1_000_000
        limits.codeResendInterval = 0
        let instance = try await SkiffServerInstance.start(SkiffServerConfiguration(
            host: "127.0.0.1", port: 0,
            database: .sqlite(path: paths.serverDatabase.path), smsOutboxPath: paths.smsOutbox.path,
            bcryptCost: 4, logger: Logger(label: "fuzz.server", factory: { _ in SwiftLogNoOpLogHandler() }),
            limits: limits
        ))
        return FuzzServer(instance: instance, folder: folder, paths: paths)
    }

    private init(instance: SkiffServerInstance, folder: URL, paths: AppPaths) {
        self.instance = instance
        self.folder = folder
        self.paths = paths
    }

    /// The whole app over live workers, as `skiff` runs it with its embedded server.
    @MainActor
    func makeApp(on terminal: HeadlessTerminal) throws -> SkiffApp {
        let configuration = SkiffAppConfiguration(serverURL: instance.baseURL, paths: paths, isEmbeddedServer: true)
        let logger = Logger(label: "fuzz.app", factory: { _ in SwiftLogNoOpLogHandler() })
        return try SkiffApp(terminal: terminal, configuration: configuration, environment: ["LANG": "C.UTF-8"], logger: logger)
    }

    /// The last code the server texted to a number for a purpose, from its development outbox.
    func latestCode(to e164: String, purpose: CodePurpose) -> String? {
        DevelopmentOutbox(file: paths.smsOutbox).latestCode(to: e164, purpose: purpose, since: .distantPast)
    }

    func stop() async {
        await instance.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
