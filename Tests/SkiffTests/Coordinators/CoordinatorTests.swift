import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("AppCoordinator", .timeLimit(.minutes(3)))
struct AppCoordinatorTests {
    @Test("no stored session: Login, with the Auth flow as the only child")
    func launchToLogin() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is LoginViewController)
        #expect(harness.app.coordinator.children.count == 1)
        #expect(harness.app.coordinator.children.first is AuthCoordinator)
        #expect(harness.tokens.current == nil)
    }

    @Test("a stored session: Home, with the token set for requests")
    func launchToHome() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        #expect(harness.top is HomeViewController)
        #expect(harness.app.coordinator.children.first is HomeCoordinator)
        #expect(harness.tokens.current == Seeds.session.token)
    }

    @Test("logging in replaces the stack with Home and the Auth child with the Home child and the idle lock beside it")
    func loginToHome() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.type("2025550143")
        await harness.send(.tab)
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is HomeViewController)
        #expect(harness.app.coordinator.children.count == 2)
        #expect(harness.app.coordinator.children.first is HomeCoordinator)
        #expect(harness.app.coordinator.children.last === harness.app.coordinator.idleLock)
    }

    @Test("logging out clears the stack and returns to Login")
    func logout() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("a"))
        await harness.send(.escape)
        await harness.send(.character("L"))
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is LoginViewController)
        #expect(harness.app.coordinator.children.first is AuthCoordinator)
        #expect(harness.sessions.load() == nil)
        #expect(harness.tokens.current == nil)
        #expect(harness.screen.contains("You are logged out."))
    }

    @Test("the stream's revoked-session event during the person's own logout is that logout: the stream stops first, Login says logged out")
    func logoutRevokedOnStream() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        #expect(await harness.waitUntil { harness.live.isOpen })
        let gate = Gate()
        harness.auth.gate = gate
        await harness.send(.character("L"))
        #expect(!harness.live.isOpen)
        harness.live.send(.event(.sessionRevoked))
        gate.open()
        await harness.settle()
        #expect(harness.top is LoginViewController)
        #expect(harness.screen.contains("You are logged out."))
        #expect(!harness.screen.contains("Your session has ended"))
    }

    @Test("a 401 anywhere returns to Login with the stack cleared and the session forgotten")
    func sessionExpired() async throws {
        let harness = ScreenHarness(session: Seeds.session)
        try await harness.start()
        await harness.send(.character("a"))
        #expect(harness.navigation.viewControllers.count == 2)
        harness.app.coordinator.sessionDidExpire()
        await harness.settle()
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is LoginViewController)
        #expect(harness.sessions.load() == nil)
        #expect(harness.screen.contains("Your session has ended. Please log in again."))
        harness.app.coordinator.sessionDidExpire()
        #expect(harness.app.coordinator.children.count == 1)
    }
}

@MainActor
@Suite("AuthCoordinator", .timeLimit(.minutes(3)))
struct AuthCoordinatorTests {
    @Test("Register runs as a child flow of Auth; Esc pops it and the child is removed")
    func register() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        let auth = try #require(harness.app.coordinator.children.first as? AuthCoordinator)
        await harness.send(.ctrl("n"))
        #expect(harness.navigation.viewControllers.count == 2)
        #expect(auth.children.count == 1)
        await harness.send(.escape)
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is LoginViewController)
        #expect(auth.children.isEmpty)
    }

    @Test("Verify phone is pushed over Register, Esc pops it, and a verified code finishes the flow")
    func verify() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.fillRegistration()
        await harness.send(.enter)
        #expect(harness.navigation.viewControllers.map { String(describing: type(of: $0)) } == [
            "LoginViewController", "RegisterViewController", "VerifyPhoneViewController",
        ])
        await harness.send(.escape)
        #expect(harness.top is RegisterViewController)
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.enter)
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is HomeViewController)
        #expect(harness.sessions.load() == Seeds.session)
    }

    @Test("Forgot password is pushed, Esc pops it, a reset pops back to Login")
    func forgot() async throws {
        let harness = ScreenHarness()
        try await harness.start()
        await harness.send(.ctrl("p"))
        #expect(harness.top is ForgotPasswordViewController)
        await harness.send(.escape)
        #expect(harness.top is LoginViewController)
        await harness.type("2025550143")
        await harness.send(.ctrl("p"))
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.tab)
        await harness.type("new-harbour-22")
        await harness.send(.enter)
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(harness.top is LoginViewController)
        #expect(harness.preferences.lastLogin()?.phoneNumber == "2025550143")
    }
}

@MainActor
@Suite("HomeCoordinator", .timeLimit(.minutes(3)))
struct HomeCoordinatorTests {
    func start() async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session) { harness in
            harness.account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(1)], nextCursor: nil)]))
            harness.notifications.listResult.set(.success([Seeds.notification]))
        }
        try await harness.start()
        return harness
    }

    var homeChildren: (ScreenHarness) -> [any Coordinator] {
        { $0.app.coordinator.children.first?.children ?? [] }
    }

    @Test("Add card runs as a child; the new card reaches Home without a reload; the child is removed")
    func addCard() async throws {
        let harness = try await start()
        let loads = harness.account.calls.count
        await harness.send(.character("a"))
        #expect(homeChildren(harness).first is SceneFlowCoordinator<Card>)
        await harness.type("4242424242424242")
        await harness.send(.tab, .tab)
        await harness.type("0429")
        await harness.send(.tab)
        await harness.type("123")
        await harness.send(.enter, .enter)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
        #expect(harness.screen.contains("Visa •••• 4242"))
        #expect(harness.account.calls.count == loads)
    }

    @Test("Add card cancelled: popped and the child removed")
    func addCardCancelled() async throws {
        let harness = try await start()
        await harness.send(.character("a"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
    }

    @Test("Send money runs as a child from Home's balance; after the receipt Home fetches nothing: the stream brings the new balance")
    func sendMoney() async throws {
        let harness = try await start()
        await harness.send(.character("s"))
        #expect(homeChildren(harness).first is SceneFlowCoordinator<SendMoneyOutcome>)
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
        let loads = harness.account.calls.count
        await harness.send(.character("s"))
        await harness.type("2025550111")
        await harness.send(.tab)
        // More than the $1,234.56 Home shows is refused before anything is looked up.
        await harness.type("1234.57")
        await harness.send(.enter)
        #expect(harness.transfers.lookups.count == 0)
        #expect(harness.prose.contains("That is more than your balance of $1,234.56."))
        await harness.send(.backspace, .character("6"))
        await harness.send(.enter)
        // The whole balance is over the step-up amount: the password first.
        await harness.type("sail-away-2026")
        await harness.send(.enter)
        #expect(harness.transfers.stepUps.all == ["sail-away-2026"])
        #expect(harness.transfers.sends.last?.order.amount == Money(amountMinor: 123_456, currency: "USD"))
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
        #expect(harness.account.calls.count == loads, "no reload of Home after money went (issue 44, point 3)")
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 0, currency: "USD"))))
        #expect(await harness.waitUntil { harness.screen.contains("$0.00") }, "\(harness.screen)")
    }

    @Test("Top up runs as a child with Home's cards; it waits for the card's bank; after the receipt the stream, not a reload, moves Home")
    func topUp() async throws {
        let harness = try await start()
        harness.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        harness.transfers.topUpResult.set(.success(.waiting(Seeds.pendingTopUp)))
        harness.transfers.progressResults.set(.success([.success(.added(Seeds.addedMoney))]))
        await harness.send(.character("r"))
        await harness.send(.character("t"))
        #expect(homeChildren(harness).first is SceneFlowCoordinator<TopUpOutcome>)
        #expect(harness.screen.contains("Visa •••• 4242"))
        #expect(!harness.screen.contains("•••• 0005"), "the Skiff card is not offered")
        let loads = harness.account.calls.count
        await harness.send(.enter)
        await harness.type("250")
        await harness.send(.enter)
        await harness.send(.enter)
        #expect(await harness.waitUntil { harness.screen.contains("Reference SKF-4TOPUP42") }, "\(harness.screen)")
        #expect(harness.transfers.progressAsked.all == ["tu_2"])
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
        #expect(harness.account.calls.count == loads, "no reload of Home after money came in (issue 44, point 3)")
        harness.live.send(.event(.balanceChanged(Money(amountMinor: 148_456, currency: "USD"))))
        #expect(await harness.waitUntil { harness.screen.contains("$1,484.56") }, "\(harness.screen)")
    }

    @Test("Activate card runs as a child; Home tells it at once and shows the active card when the stream says the card changed")
    func activate() async throws {
        let harness = try await start()
        await harness.send(.character("v"))
        #expect(homeChildren(harness).first is SceneFlowCoordinator<Card>)
        await harness.send(.escape)
        #expect(homeChildren(harness).isEmpty)
        await harness.send(.character("v"))
        await harness.type("0005")
        await harness.send(.enter)
        await harness.type("482913")
        await harness.send(.enter)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
        #expect(harness.cards.activations.last?.cardID == Seeds.issuedCard.id)
        var active = Seeds.issuedCard
        active.status = .active
        harness.cards.cardsResult.set(.success([active]))
        harness.live.send(.event(.cardChanged))
        #expect(await harness.waitUntil { harness.screen.contains("Skiff card · expires 11/30 · Active") }, "\(harness.screen)")
    }

    @Test("Notifications pushed; the unread count on Home follows the stream, not the closing screen")
    func notifications() async throws {
        let harness = try await start()
        #expect(harness.screen.contains("3 unread"))
        await harness.send(.character("n"))
        #expect(harness.top is NotificationsViewController)
        await harness.send(.character("m"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(harness.screen.contains("3 unread"), "nothing handed back")
        harness.live.send(.event(.unreadChanged(2)))
        #expect(await harness.waitUntil { harness.screen.contains("2 unread") }, "\(harness.screen)")
    }

    @Test("Transaction detail runs as a child, pushed and popped, and the child removed")
    func transaction() async throws {
        let harness = try await start()
        await harness.send(.enter)
        #expect(harness.top is TransactionDetailViewController)
        #expect(homeChildren(harness).count == 1)
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(harness.navigation.viewControllers.count == 1)
        #expect(homeChildren(harness).isEmpty)
    }

    @Test("Cards runs as a child coordinator; Esc from Cards removes it")
    func cards() async throws {
        let harness = try await start()
        await harness.send(.character("c"))
        #expect(harness.top is CardsViewController)
        #expect(homeChildren(harness).first is CardsCoordinator)
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(homeChildren(harness).isEmpty)
    }
}
