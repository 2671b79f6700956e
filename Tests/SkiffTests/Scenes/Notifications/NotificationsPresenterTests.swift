import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("NotificationsPresenter")
struct NotificationsPresenterTests {
    @Test("rows, unread summary and empty wording")
    func rows() {
        let display = NotificationsDisplayLogicSpy()
        let sut = NotificationsPresenter(formatting: Seeds.utc)
        sut.viewController = display
        var state = Notifications.State()
        state.items = [Seeds.notification]
        state.hasLoaded = true
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.rows == [.init(title: "● Welcome to Skiff", body: "Your card is on its way.", date: "22 Nov 2026 12:00", isUnread: true)])
        #expect(display.displayUpdateCalls.last?.summary == "1 unread")
        state.items = []
        state.hasLoaded = true
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.emptyText == "No notifications yet.")
        #expect(display.displayUpdateCalls.last?.summary == "All read")
    }

    @Test("errors become a banner")
    func error() {
        let display = NotificationsDisplayLogicSpy()
        let sut = NotificationsPresenter(formatting: Seeds.utc)
        sut.viewController = display
        var state = Notifications.State()
        state.error = .timeout
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner?.kind == .error)
    }

    @Test("the open notification in full: its title without the unread mark, date and whole text")
    func opened() {
        let display = NotificationsDisplayLogicSpy()
        let sut = NotificationsPresenter(formatting: Seeds.utc)
        sut.viewController = display
        var state = Notifications.State()
        let long = String(repeating: "Every word of it is shown. ", count: 8)
        state.items = [Seeds.notification, AppNotification(id: "n_2", title: "Card shipped", body: long, createdAt: Seeds.now, read: false)]
        state.hasLoaded = true
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.opened == nil)
        state.openID = "n_2"
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.opened == .init(title: "Card shipped", date: "22 Nov 2026 12:00", body: long))
    }
}
