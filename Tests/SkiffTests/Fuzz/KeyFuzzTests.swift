import Foundation
import SkiffCore
import Testing
import TerminalUI

/// The key fuzzing walk (`KeyFuzzer`). CI walks 5,000 keys over five seeds; `SKIFF_FUZZ_KEYS=100000` walks
/// more, and `SKIFF_FUZZ_SEED` walks one seed only (to replay a failure, with the key count it printed).
@Suite("Key fuzzing", .serialized)
@MainActor
struct KeyFuzzTests {
    static let ciSeeds: [UInt64] = [1, 2, 3, 4, 5]
    static let ciKeys = 5_000

    @Test("a seeded walk of keys over every screen breaks no invariant", .timeLimit(.minutes(60)))
    func walk() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seeds = environment["SKIFF_FUZZ_SEED"].flatMap(UInt64.init).map { [$0] } ?? Self.ciSeeds
        let keys = environment["SKIFF_FUZZ_KEYS"].flatMap(Int.init) ?? Self.ciKeys
        let perSeed = max(1, keys / seeds.count)
        var screens: Set<String> = []
        for seed in seeds {
            // A crash ends the process without a Failure: this line names the seed that replays it.
            print("key fuzzing: seed \(seed), \(perSeed) keys (replay: SKIFF_FUZZ_SEED=\(seed) SKIFF_FUZZ_KEYS=\(perSeed))")
            let started = ContinuousClock.now
            do {
                let run = try await KeyFuzzer.run(seed: seed, keys: perSeed)
                screens.formUnion(run.screensSeen)
                print("key fuzzing: seed \(seed), \(run.keyIndex) keys in \(ContinuousClock.now - started), "
                    + "\(run.cardsAdded) of \(run.addCardAttempts) cards added, \(run.restarts) restarts, screens: \(run.screensSeen.sorted().joined(separator: ", "))")
            } catch let failure as KeyFuzzer.Failure {
                Issue.record(Comment(rawValue: failure.description))
                return
            }
        }
        if seeds.count > 1 {
            #expect(screens.isSuperset(of: [
                "LoginViewController", "RegisterViewController", "VerifyPhoneViewController", "ForgotPasswordViewController",
                "HomeViewController", "AddCardViewController", "ActivateCardViewController", "NotificationsViewController",
                "TransactionDetailViewController", "SendMoneyViewController", "TopUpViewController",
            ]), "the walk did not reach every screen: \(screens.sorted())")
        }
    }
}

/// The invariant checks themselves: each one catches what it is for.
@Suite("Key fuzzing checks")
@MainActor
struct FuzzInvariantsTests {
    @Test("a card number counts as shown from 12 digits in a row, grouped or not")
    func numberLeaks() {
        var ledger = SecretLedger()
        ledger.addNumber("4111111111111111")
        #expect(ledger.leak(in: "Card 4111 1111 1111 1111") != nil)
        #expect(ledger.leak(in: "x 411111111111 y") != nil)
        #expect(ledger.leak(in: "1111-1111-1111") != nil)
        #expect(ledger.leak(in: "41111111111") == nil)
        #expect(ledger.leak(in: "Visa •••• 1111") == nil)
        #expect(ledger.leak(in: "4111 1111\n1111 1111") == nil)
    }

    @Test("a security code counts as shown only as a token of its own")
    func securityCodeLeaks() {
        var ledger = SecretLedger()
        ledger.addNumber("4111111111111111")
        ledger.addSecurityCode("739")
        #expect(ledger.leak(in: "CVC 739") != nil)
        #expect(ledger.leak(in: "│739│") != nil)
        #expect(ledger.leak(in: "-$739.02") == nil)
        #expect(ledger.leak(in: "17390") == nil)
        #expect(ledger.leak(in: "11/739") == nil)
    }

    @Test("a view model with a typed number deep inside, or any Redacted value, is caught")
    func viewModelLeaks() {
        struct Row { var label: String; var value: String }
        struct Model { var rows: [Row]; var banner: String? }
        var ledger = SecretLedger()
        ledger.addNumber("5555555555554444")
        #expect(ledger.leak(inViewModel: Model(rows: [.init(label: "Card", value: "5555 5555 5555 4444")], banner: nil)) != nil)
        #expect(ledger.leak(inViewModel: Model(rows: [.init(label: "Card", value: "•••• 4444")], banner: "Added")) == nil)
    }

    @Test("typed cards pass the Luhn check")
    func cards() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            let card = FuzzCards.card(using: &random)
            let payload = String(card.number.dropLast())
            #expect(FuzzCards.luhnCheckDigit(for: payload) == card.number.last?.wholeNumberValue)
            #expect([3, 4].contains(card.securityCode.count))
        }
    }

    @Test("a frame with a broken wide grapheme or the wrong size is refused")
    func brokenFrames() {
        var buffer = CellBuffer(size: Size(width: 4, height: 1))
        buffer.write("漢字", x: 0, y: 0, style: .plain)
        #expect(FuzzInvariants.bufferProblem(buffer, size: Size(width: 4, height: 1)) == nil)
        #expect(FuzzInvariants.bufferProblem(buffer, size: Size(width: 5, height: 1)) != nil)
        var broken = CellBuffer(size: Size(width: 4, height: 1))
        broken.set(Cell(text: "", width: 0), x: 1, y: 0)
        #expect(FuzzInvariants.bufferProblem(broken, size: Size(width: 4, height: 1)) != nil)
    }

    @Test("a focused view that is hidden or off screen is refused")
    func focusChecks() throws {
        let terminal = HeadlessTerminal(width: 40, height: 12)
        let screen = ViewController(title: "Fields")
        let first = TextField(), second = TextField()
        screen.view.addSubview(first)
        screen.view.addSubview(second)
        let application = Application(terminal: terminal, rootViewController: NavigationController(root: screen))
        try application.start()
        first.frame = Rect(x: 0, y: 0, width: 10, height: 1)
        second.frame = Rect(x: 0, y: 2, width: 10, height: 1)
        screen.focus(second)
        #expect(FuzzInvariants.focusProblem(in: application) == nil)
        second.frame = Rect(x: 0, y: 40, width: 10, height: 1)
        #expect(FuzzInvariants.focusProblem(in: application) != nil)
        second.frame = Rect(x: 0, y: 2, width: 10, height: 1)
        second.isHidden = true
        #expect(FuzzInvariants.focusProblem(in: application) != nil)
    }
}
