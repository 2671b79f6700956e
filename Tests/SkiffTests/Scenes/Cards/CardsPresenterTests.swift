import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Cards presenter")
struct CardsPresenterTests {
    let display = CardsDisplayLogicSpy()

    func makeSUT() -> CardsPresenter {
        let sut = CardsPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("each card with brand, last four, owner, expiry and status; f, v and d worded or offered per card")
    func rows() {
        var frozenIssued = Seeds.issuedCard
        frozenIssued.frozen = true
        let sut = makeSUT()
        sut.presentUpdate(response: .init(state: .init(cards: [frozenIssued])))
        #expect(display.displayUpdateCalls.last?.rows.map(\.canActivate) == [false], "a frozen card cannot be activated")
        var frozen = Seeds.externalCard
        frozen.frozen = true
        var state = Cards.State(cards: [Seeds.issuedCard, frozen])
        state.notice = .changed(frozen)
        makeSUT().presentUpdate(response: .init(state: state))
        let vm = display.displayUpdateCalls.last!
        #expect(vm.rows.map(\.title) == ["Visa •••• 0005", "Visa •••• 4242"])
        #expect(vm.rows.map(\.detail) == ["Skiff card · expires 11/30 · Inactive", "Added card · expires 04/29 · Frozen"])
        #expect(vm.rows.map(\.freezeHelp) == ["freeze card", "unfreeze card"])
        #expect(vm.rows.map(\.canRemove) == [false, true])
        #expect(vm.rows.map(\.canActivate) == [true, false])
        #expect(vm.rows.map(\.isFrozen) == [false, true])
        #expect(vm.banner == BannerMessage(.info, "Visa •••• 4242 frozen."))
        #expect(vm.emptyText == nil)
        #expect(vm.busyText == nil)
    }

    @Test("a change that landed is said once: unfrozen, removed, added, activated")
    func notices() {
        var state = Cards.State(cards: [Seeds.externalCard])
        state.notice = .changed(Seeds.externalCard)
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 4242 unfrozen."))
        state.notice = .removed(Seeds.externalCard)
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 4242 removed."))
        state.notice = .added(Seeds.externalCard)
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 4242 added."))
        state.notice = .activated(Seeds.issuedCard)
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 0005 is active."))
    }

    @Test("what is on its way is said: loading, freezing, unfreezing, removing")
    func busy() {
        var state = Cards.State()
        state.isLoading = true
        let sut = makeSUT()
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.busyText == "Loading…")
        #expect(display.displayUpdateCalls.last?.emptyText == "Loading cards…")
        state.isLoading = false
        for (change, text) in [
            (Cards.Change.freeze(Seeds.externalCard), "Freezing…"), (.unfreeze(Seeds.externalCard), "Unfreezing…"),
            (.remove(Seeds.externalCard), "Removing…"),
        ] {
            state.changing = change
            sut.presentUpdate(response: .init(state: state))
            #expect(display.displayUpdateCalls.last?.busyText == text)
        }
        #expect(display.displayUpdateCalls.last?.emptyText == "No cards yet.")
    }

    @Test("an error is worded as an error banner")
    func error() {
        var state = Cards.State(cards: [Seeds.issuedCard])
        state.error = .unreachable
        makeSUT().presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.error, "Can't reach the server. Check the connection and try again."))
    }

    @Test("the removal question names the card by brand and last four")
    func removeQuestion() {
        makeSUT().presentRemove(response: .init(card: Seeds.externalCard))
        #expect(display.displayRemoveCalls == [.init(
            title: "Remove card", message: "Remove Visa •••• 4242 from your account?", confirm: "Remove", cancel: "Keep",
            cardID: "c_ext"
        )])
    }
}
