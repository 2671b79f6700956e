import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("BalancePresenter")
struct BalancePresenterTests {
    let display = BalanceDisplayLogicSpy()

    func makeSUT(formatting: Formatting = Seeds.utc) -> BalancePresenter {
        let sut = BalancePresenter(formatting: formatting)
        sut.viewController = display
        return sut
    }

    @Test("the name, the balance and the unread badge")
    func loaded() {
        makeSUT().presentUpdate(response: .init(state: Balance.State(summary: Seeds.summary)))
        #expect(display.displayUpdateCalls.last == .init(
            name: "Alex Rivera", balance: "Balance $1,234.56", unreadBadge: "3 unread", connection: nil
        ))
    }

    @Test("no badge when everything is read")
    func noBadge() {
        var summary = Seeds.summary
        summary.unreadNotifications = 0
        makeSUT().presentUpdate(response: .init(state: Balance.State(summary: summary)))
        #expect(display.displayUpdateCalls.last?.unreadBadge == nil)
    }

    @Test("before anything loads the balance is a dash and there is no name")
    func nothingYet() {
        makeSUT().presentUpdate(response: .init(state: Balance.State()))
        #expect(display.displayUpdateCalls.last == .init(name: "", balance: "Balance —", unreadBadge: nil, connection: nil))
    }

    @Test("Offline while the live stream cannot reach the server")
    func offline() {
        makeSUT().presentUpdate(response: .init(state: Balance.State(summary: Seeds.summary, isOffline: true)))
        #expect(display.displayUpdateCalls.last?.connection == "Offline")
        #expect(display.displayUpdateCalls.last?.balance == "Balance $1,234.56", "what was known stays")
    }

    @Test("the balance blurs while the display does, presented again when it changes")
    func blur() {
        let privacy = DisplayPrivacy()
        let sut = makeSUT(formatting: Formatting(timeZone: Seeds.utc.timeZone, privacy: privacy))
        sut.presentUpdate(response: .init(state: Balance.State(summary: Seeds.summary)))
        privacy.isBlurred = true
        #expect(display.displayUpdateCalls.count == 2)
        #expect(display.displayUpdateCalls.last?.balance == "Balance •••")
        #expect(display.displayUpdateCalls.last?.name == "Alex Rivera")
        privacy.isBlurred = false
        #expect(display.displayUpdateCalls.last?.balance == "Balance $1,234.56")
    }
}
