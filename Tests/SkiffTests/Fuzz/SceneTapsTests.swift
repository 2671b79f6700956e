import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// The key fuzzer sees every scene's view models: the SceneDoubles plugin made a tap for every scene folder, and
/// each tap, put behind a screen built as the app builds it, sees the view models that screen is shown.
@MainActor
@Suite("Scene taps")
struct SceneTapsTests {
    /// The package's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("the generator saw every scene folder and made a tap for each")
    func everySceneHasATap() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: "Sources/Skiff/Scenes").path)
            .filter { $0 != "Shared" && !$0.hasPrefix(".") }
        #expect(SceneTaps.scenes.sorted() == folders.sorted())
        #expect(SceneTaps.uninspectable.isEmpty, "the fuzzer cannot inspect: \(SceneTaps.uninspectable)")
    }

    /// Every scene, built through the app's factory over worker doubles. A new scene fails `everySceneIsBuilt`
    /// until it is added here. A part of a screen (Home's) is built with its host, which loads it.
    static func screens(_ factory: SceneFactory) -> [String: () -> (screen: ViewController, host: ViewController)] {
        let alone: [String: () -> ViewController] = [
            "ActivateCard": { factory.activateCard(Seeds.issuedCard, phoneE164: Seeds.phone.e164).0 },
            "AddCard": { factory.addCard(holderName: "ALEX RIVERA").0 },
            "CardDetail": { factory.cardDetail(Seeds.issuedCard).0 },
            "Cards": { factory.cards([Seeds.issuedCard, Seeds.externalCard]).0 },
            "ForgotPassword": { factory.forgotPassword(prefill: nil).0 },
            "Home": { factory.home(session: Seeds.session).0 },
            "Launch": { factory.launch().0 },
            "Lock": { factory.lock(userName: "Alex", reason: .idle).0 },
            "Login": { factory.login(notice: nil).0 },
            "Notifications": { factory.notifications().0 },
            "Register": { factory.register(prefill: nil).0 },
            "SendMoney": { factory.sendMoney(balance: Seeds.summary.balance, userID: Seeds.session.user.id).0 },
            "TopUp": {
                factory.topUp(cards: [Seeds.externalCard, Seeds.frozenCard], balance: Seeds.summary.balance).0
            },
            "TransactionDetail": { factory.transactionDetail(Seeds.transaction(1)).0 },
            "VerifyPhone": {
                factory.verifyPhone(
                    registration: Registration(phone: Seeds.phone, fullName: "Alex Rivera", password: "sail-away-2026"),
                    challenge: Seeds.challenge, keys: RetryKeys()
                ).0
            },
        ]
        let parts: [String: (HomeViewController) -> ViewController] = [
            "Balance": { $0.balance }, "CardsPanel": { $0.cards }, "Spending": { $0.spending }, "Transactions": { $0.transactions },
        ]
        return alone.mapValues { build in { let screen = build(); return (screen, screen) } }.merging(parts.mapValues { part in
            {
                let home = factory.home(session: Seeds.session).0
                return (part(home), home)
            }
        }) { first, _ in first }
    }

    @Test("every scene the generator saw is built by this test")
    func everySceneIsBuilt() {
        let built = Set(Self.screens(.doubles(tasks: TaskTracker())).keys)
        #expect(built == Set(SceneTaps.scenes), "add the new scene to SceneTapsTests.screens")
    }

    @Test("a tap behind each scene's screen sees the view models its presenter hands on", arguments: SceneTaps.scenes)
    func tapSeesViewModels(scene: String) async throws {
        let tasks = TaskTracker()
        let build = try #require(Self.screens(.doubles(tasks: tasks))[scene], "SceneTapsTests.screens has no \(scene)")
        let (screen, host) = build()
        var seen: [String] = []
        let outcome = SceneTaps.tap(screen, inspect: { seen.append(String(describing: type(of: $0))) })
        guard case .tapped(let tap) = outcome else {
            Issue.record("\(scene): \(outcome)")
            return
        }
        _ = host.view
        // Launch starts when its coordinator says, not when its view loads.
        (screen as? LaunchViewController)?.start()
        await tasks.settle()
        withExtendedLifetime((tap, host)) {}
        #expect(!seen.isEmpty, "\(scene)'s tap saw no view model when the screen loaded")
    }

    @Test("a screen that is no scene's is left alone; a scene screen no tap knows fails")
    func unknownScreens() {
        guard case .notAScene = SceneTaps.tap(ViewController(), inspect: { _ in }) else {
            Issue.record("a plain view controller was taken for a scene")
            return
        }
        guard case .uninspectable(let why) = SceneTaps.tap(SceneViewController(title: "New"), inspect: { _ in }) else {
            Issue.record("a scene screen without a tap was let through")
            return
        }
        #expect(why.contains("SceneViewController"))
    }
}
