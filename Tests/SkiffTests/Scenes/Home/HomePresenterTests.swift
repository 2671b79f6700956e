import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("HomePresenter")
struct HomePresenterTests {
    let display = HomeDisplayLogicSpy()

    func makeSUT(formatting: Formatting = Seeds.utc) -> HomePresenter {
        let sut = HomePresenter(formatting: formatting)
        sut.viewController = display
        return sut
    }

    func loaded() -> Home.State {
        var state = Home.State()
        state.summary = Seeds.summary
        state.cards = [Seeds.issuedCard, Seeds.externalCard]
        state.firstPage = .init(items: [Seeds.transaction(1)], nextCursor: nil)
        return state
    }

    /// What Home shows of `state`.
    func present(_ state: Home.State) -> Home.UpdateViewModel? {
        makeSUT().presentUpdate(response: .init(state: state))
        return display.displayUpdateCalls.last
    }

    @Test("loaded and fresh: no banner, not busy, and v offered for the inactive Skiff card")
    func loadedState() {
        #expect(present(loaded()) == .init(banner: nil, isBusy: false, canActivateCard: true))
    }

    @Test("a built-in server that could not start is said as it is, over the cache, without a retry that cannot help")
    func serverNotStarted() {
        var state = loaded()
        state.cachedAt = Date(timeIntervalSince1970: 1_790_000_000)
        state.errors[.balance] = .serverNotStarted(reason: "disk full")
        #expect(present(state)?.banner == BannerMessage(
            .error, "The built-in server could not start: disk full. Quit and start Skiff again."
        ))
    }

    @Test("offline with a cache says since when and how to retry")
    func offline() {
        var state = loaded()
        state.cachedAt = Seeds.now.addingTimeInterval(-7200)
        state.errors[.transactions] = .unreachable
        #expect(present(state)?.banner == BannerMessage(
            .error, "Offline: showing data from 22 Nov 2026 10:00. Can't reach the server.", prompts: [KeyPrompt(.refresh, "retry")]
        ))
    }

    @Test("unreachable without a cache points at Home's refresh key")
    func unreachableNoCache() {
        var state = loaded()
        state.errors[.cards] = .unreachable
        #expect(present(state)?.banner == BannerMessage(.error, "Can't reach the server.", prompts: [KeyPrompt(.refresh, "retry")]))
    }

    @Test("a connection that broke mid-answer, or a slow server, is a connection problem too: said with the refresh key")
    func connectionProblems() {
        var state = loaded()
        state.errors[.balance] = .connectionLost
        #expect(present(state)?.banner == BannerMessage(
            .error, "The connection to the server broke.", prompts: [KeyPrompt(.refresh, "retry")]
        ))
        state.errors[.balance] = .timeout
        #expect(present(state)?.banner == BannerMessage(
            .error, "The server is slow to answer.", prompts: [KeyPrompt(.refresh, "retry")]
        ))
    }

    @Test("another failure without a cache is said in its own words")
    func otherError() {
        var state = loaded()
        state.errors[.transactions] = .server(status: 503, detail: "down")
        #expect(present(state)?.banner == BannerMessage(
            .error, "The server is not available for a moment (503). Please try again in a few seconds."
        ))
        state.errors[.transactions] = .server(status: 500, detail: "broken")
        #expect(present(state)?.banner == BannerMessage(
            .error, "Something went wrong on our side (500). Please try again in a moment."
        ))
    }

    @Test("a cancelled load says nothing")
    func cancelled() {
        var state = loaded()
        state.errors[.balance] = .cancelled
        #expect(present(state)?.banner == nil)
    }

    @Test("refreshing over cached data says so; once nothing loads, the cache's date is not said")
    func refreshing() {
        var state = loaded()
        state.cachedAt = Seeds.now
        state.loading = [.transactions]
        let vm = present(state)
        #expect(vm?.banner == BannerMessage(.info, "Showing data from 22 Nov 2026 12:00 · refreshing…"))
        #expect(vm?.isBusy == true)
        state.loading = []
        #expect(present(state)?.banner == nil)
        #expect(display.displayUpdateCalls.last?.isBusy == false)
    }

    @Test("busy while any part loads or while logging out")
    func busy() {
        var state = loaded()
        state.loading = [.cards]
        #expect(present(state)?.isBusy == true)
        state.loading = []
        state.isLoggingOut = true
        #expect(present(state)?.isBusy == true)
    }

    @Test("an error outranks a notice, and a notice the refreshing line")
    func bannerOrder() {
        var state = loaded()
        state.cachedAt = Seeds.now
        state.loading = [.balance]
        state.notice = .cardAdded(Seeds.externalCard)
        #expect(present(state)?.banner == BannerMessage(.info, "Visa •••• 4242 added."))
        state.errors[.cards] = .unreachable
        #expect(present(state)?.banner?.kind == .error)
    }

    @Test("each notice in words: a card added or activated, and why v opened no activation")
    func noticeWording() {
        var active = Seeds.issuedCard
        active.status = .active
        let expected: [(Home.State.Notice, String)] = [
            (.cardAdded(Seeds.externalCard), "Visa •••• 4242 added."),
            (.cardActivated(active), "Your Skiff card •••• 0005 is active."),
            (.unfreezeCardFirst, "Your Skiff card is frozen. Unfreeze it first (f on Cards, c from Home)."),
            (.cardAlreadyActive, "Your Skiff card is already active."),
            (.noCardToActivate, "There is no Skiff card to activate yet."),
        ]
        for (notice, words) in expected {
            var state = loaded()
            state.notice = notice
            #expect(present(state)?.banner == BannerMessage(.info, words))
        }
    }

    @Test("money in, told live: who sent it or which card topped it up; blurred with the display")
    func moneyReceived() {
        let money = Money(amountMinor: 1_250, currency: "USD")
        var state = loaded()
        state.notice = .moneyReceived(money, from: "Alex R.", isTopUp: false)
        #expect(present(state)?.banner == BannerMessage(.info, "Received $12.50 from Alex R."))
        state.notice = .moneyReceived(money, from: "Visa •••• 4242", isTopUp: true)
        #expect(present(state)?.banner == BannerMessage(.info, "Topped up $12.50 from Visa •••• 4242."))

        let privacy = DisplayPrivacy()
        let sut = makeSUT(formatting: Formatting(timeZone: Seeds.utc.timeZone, privacy: privacy))
        sut.presentUpdate(response: .init(state: state))
        privacy.isBlurred = true
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Topped up ••• from Visa •••• 4242."))
    }

    @Test("v is offered only while a card can be activated")
    func canActivate() {
        var state = loaded()
        #expect(present(state)?.canActivateCard == true)
        state.cards[0].frozen = true
        #expect(present(state)?.canActivateCard == false, "not while the card is frozen")
        state.cards[0].frozen = false
        state.cards[0].status = .active
        #expect(present(state)?.canActivateCard == false)
        state.cards = []
        #expect(present(state)?.canActivateCard == false)
    }
}
