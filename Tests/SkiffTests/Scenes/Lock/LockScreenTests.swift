import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Lock screen", .timeLimit(.minutes(3)))
struct LockScreenTests {
    let clock = ManualIdleClock()

    /// Home with a page of transactions, locking after 5 minutes on the manual clock.
    func signedIn(formatting: Formatting = Seeds.utc) async throws -> ScreenHarness {
        let harness = ScreenHarness(
            session: Seeds.session, formatting: formatting, idleLock: IdleLockSettings(after: .seconds(300), clock: clock)
        ) { $0.account.pages.set(.success(HomeScreenTests.pages(30))) }
        try await harness.start()
        #expect(harness.top is HomeViewController)
        return harness
    }

    func idle(_ harness: ScreenHarness, for duration: Duration) async {
        clock.advance(by: duration)
        await harness.settle()
    }

    /// Everything a locked screen must not show: amounts, the balance, cards and transactions.
    func expectNothingSensitive(_ screen: String) {
        for secret in ["$", "Balance", "Visa", "••••", "Merchant", "Groceries", "Cards", "Transactions", "unread"] {
            #expect(!screen.contains(secret), "the locked screen shows “\(secret)”")
        }
    }

    @Test("after 5 minutes without a key Lock covers Home, and nothing of the account is drawn")
    func locksWhenIdle() async throws {
        let harness = try await signedIn()
        #expect(harness.screen.contains("Balance $1,234.56"))
        await idle(harness, for: .seconds(299))
        #expect(harness.top is HomeViewController)
        await idle(harness, for: .seconds(1))
        #expect(harness.top is LockViewController)
        #expect(harness.terminal.lines[0] == " Locked")
        #expect(harness.screen.components(separatedBy: "Locked").count == 2, "the breadcrumb says it, once")
        expectNothingSensitive(harness.screen)
        assertSnapshot(of: harness.terminal, as: .screen, named: "lock")
        #expect(harness.sessions.load()?.isLocked == true)
        #expect(harness.auth.locks.count == 1)
    }

    @Test("a start with the session saved locked shows Lock, never Home, and loads nothing of Home until unlocked")
    func lockedStart() async throws {
        var locked = Seeds.session
        locked.isLocked = true
        let harness = ScreenHarness(session: locked, idleLock: IdleLockSettings(after: .seconds(300), clock: clock)) {
            $0.account.pages.set(.success(HomeScreenTests.pages(30)))
        }
        try await harness.start()
        #expect(harness.top is LockViewController)
        #expect(harness.screen.contains("Skiff was locked when it last ran."))
        expectNothingSensitive(harness.screen)
        let home = try #require(harness.navigation.viewControllers.first as? HomeViewController)
        #expect(!home.isViewLoaded, "Home, its cache and its requests wait for the password")
        #expect(harness.account.calls.count == 0)
        #expect(harness.auth.locks.count == 1, "the server is told again: it may not have heard before")
        #expect(harness.sessions.load()?.isLocked == true)
        // The lock needs no count of its own while locked.
        await idle(harness, for: .seconds(600))
        #expect(clock.pendingCount == 0)

        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.screen.contains("Balance $1,234.56"))
        #expect(harness.sessions.load()?.isLocked == false)
        await idle(harness, for: .seconds(300))
        #expect(harness.top is LockViewController)
    }

    @Test("the server's session-locked answer covers Home with Lock, also with the idle lock off")
    func serverLock() async throws {
        let harness = ScreenHarness(session: Seeds.session) { $0.account.pages.set(.success(HomeScreenTests.pages(30))) }
        try await harness.start()
        #expect(harness.top is HomeViewController)
        // A refresh the server refuses: the live client's middleware reports the 423 to the coordinator.
        harness.account.summaryResult.set(.failure(.locked))
        await harness.send(.character("r"))
        harness.app.coordinator.sessionDidLock()
        await harness.settle()
        #expect(harness.top is LockViewController)
        #expect(harness.prose.contains("This session was locked: it went unused for a while, or another Skiff locked it."))
        expectNothingSensitive(harness.screen)
        #expect(harness.sessions.load()?.isLocked == true)
        #expect(harness.auth.locks.count == 1)
        harness.account.summaryResult.set(.success(Seeds.summary))
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(harness.sessions.load()?.isLocked == false)
        #expect(await harness.waitUntil { harness.screen.contains("Balance $1,234.56") && !harness.screen.contains("locked") },
                "Home fetched again what was refused while locked, once the stream was back: \(harness.screen)")
    }

    @Test("each key starts the count again, with no alarm set per key")
    func keysPostponeTheLock() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(200))
        await harness.send(.down)
        await harness.send(.down)
        await idle(harness, for: .seconds(200))
        #expect(harness.top is HomeViewController)
        await idle(harness, for: .seconds(99))
        #expect(harness.top is HomeViewController)
        await idle(harness, for: .seconds(1))
        #expect(harness.top is LockViewController)
        #expect(clock.scheduledCount == 2)
        #expect(clock.pendingCount == 0)
    }

    @Test("the help overlay lists only the lock's keys")
    func helpShowsOnlyLockKeys() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(300))
        await harness.send(.function(1))
        let screen = harness.screen
        #expect(screen.contains("unlock"))
        #expect(screen.contains("log out"))
        for homeKey in ["add card", "activate card", "notifications", "search", "refresh", "Esc"] {
            #expect(!screen.contains(homeKey), "help lists “\(homeKey)” while locked")
        }
        expectNothingSensitive(screen)
    }

    @Test("a wrong password stays locked and empties the field; the right one shows Home again")
    func unlock() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(300))
        harness.auth.unlockResult.set(.failure(.validation(detail: "The password is not right.", fields: [])))
        await harness.type("wrong")
        await harness.send(.enter)
        #expect(harness.top is LockViewController)
        #expect(harness.screen.contains("That password is not right."))
        #expect((harness.top as? LockViewController)?.password.text == "")
        expectNothingSensitive(harness.screen)
        harness.auth.unlockResult.set(.success(()))
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.auth.unlocks.all == ["wrong", "sail-away-2026"])
        #expect(harness.top is HomeViewController)
        #expect(harness.screen.contains("Balance $1,234.56"))
        #expect(harness.app.coordinator.idleLock?.isLocked == false)
    }

    @Test("unlocking returns to the same screen, focus and text, with the card number and code emptied")
    func restoresScreenFocusAndText() async throws {
        let harness = try await signedIn()
        await harness.send(.character("a"))
        let addCard = try #require(harness.top as? AddCardViewController)
        await harness.type("4242424242424242")
        await harness.send(.tab, .tab)
        await harness.type("0429")
        await harness.send(.tab)
        await harness.type("123")
        await harness.send(.backTab)
        #expect(addCard.focusedView === addCard.expiry)
        await idle(harness, for: .seconds(300))
        #expect(harness.top is LockViewController)
        #expect(!harness.screen.contains("4242"))
        #expect(!harness.screen.contains("Add card"))
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.top === addCard)
        #expect(harness.terminal.lines[0] == " Home › Add card")
        #expect(addCard.focusedView === addCard.expiry)
        #expect(addCard.expiry.text == "0429")
        #expect(addCard.holderName.text == "ALEX RIVERA")
        #expect(addCard.number.text == "")
        #expect(addCard.securityCode.text == "")
    }

    /// Issue 42, point 11: a show-password toggle, hidden again by the lock.
    @Test("Ctrl-T shows the lock's password while asked; a password shown on Send money is hidden (and emptied) when the lock comes")
    func showPassword() async throws {
        let harness = try await signedIn()
        await harness.send(.character("s"))
        let send = try #require(harness.top as? SendMoneyViewController)
        await harness.type("202 555 0111")
        await harness.send(.tab)
        await harness.type("1000")
        await harness.send(.enter)
        await harness.type("sail-away-2026")
        await harness.send(.ctrl("t"))
        #expect(send.password.isRevealed)
        await idle(harness, for: .seconds(300))
        #expect(harness.top is LockViewController)
        #expect(!send.password.isRevealed && send.password.text.isEmpty)
        #expect(harness.screen.contains("Ctrl-T show password"))
        await harness.type("wrong")
        await harness.send(.ctrl("t"))
        #expect(harness.screen.contains("wrong"))
        await harness.send(.ctrl("t"))
        #expect(!harness.screen.contains("wrong"))
    }

    @Test("Ctrl-O on the lock logs out to Login")
    func logout() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(300))
        await harness.send(.ctrl("o"))
        #expect(harness.top is LoginViewController)
        #expect(harness.auth.logouts.count == 1)
        #expect(harness.sessions.load() == nil)
        #expect(harness.sessions.clears == 1)
        #expect(harness.navigation.coveringViewController == nil)
        await idle(harness, for: .seconds(600))
        #expect(harness.top is LoginViewController)
    }

    @Test("Ctrl-C still quits while locked")
    func ctrlCQuits() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(300))
        harness.app.application.send(.ctrl("c"))
        #expect(harness.app.application.exitStatus == 130)
    }

    @Test("amounts blur to ••• while the terminal is unfocused and come back on focus")
    func focusBlursAmounts() async throws {
        let harness = try await signedIn(formatting: Formatting(timeZone: Seeds.utc.timeZone, privacy: DisplayPrivacy()))
        harness.app.application.process(Array("\u{1B}[O".utf8))
        await harness.settle()
        #expect(harness.screen.contains("Balance •••"))
        #expect(!harness.screen.contains("$"))
        #expect(harness.screen.contains("Merchant 1"))
        harness.app.application.process(Array("\u{1B}[I".utf8))
        await harness.settle()
        #expect(harness.screen.contains("Balance $1,234.56"))
        #expect(harness.screen.contains("-$1.37"))
    }

    @Test("focus reports are no key: they neither postpone the lock nor reach the screen")
    func focusIsNoActivity() async throws {
        let harness = try await signedIn()
        await idle(harness, for: .seconds(200))
        harness.app.application.process(Array("\u{1B}[O\u{1B}[I".utf8))
        await idle(harness, for: .seconds(100))
        #expect(harness.top is LockViewController)
    }
}
