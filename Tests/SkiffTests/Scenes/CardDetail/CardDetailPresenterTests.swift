import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Card detail presenter")
struct CardDetailPresenterTests {
    let display = CardDetailDisplayLogicSpy()

    func makeSUT() -> CardDetailPresenter {
        let sut = CardDetailPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("the card in full: masked number, holder, expiry, issuer, status, not frozen")
    func issued() {
        makeSUT().presentLoad(response: .init(card: Seeds.issuedCard))
        let vm = display.displayLoadCalls.last!
        #expect(vm.title == "Visa •••• 0005")
        #expect(vm.heading == "Visa •••• 0005")
        #expect(vm.rows.map(\.label) == ["Brand", "Number", "Holder", "Expires", "Issued by", "Status", "Frozen"])
        #expect(vm.rows.map(\.value) == ["Visa", "•••• 0005", "ALEX RIVERA", "11/30", "Skiff", "Inactive", "No"])
        #expect(vm.hint == nil)
    }

    @Test("a frozen added card says so and how to unfreeze it here")
    func frozen() {
        var card = Seeds.externalCard
        card.frozen = true
        makeSUT().presentLoad(response: .init(card: card))
        let vm = display.displayLoadCalls.last!
        #expect(vm.rows.map(\.value) == [
            "Visa", "•••• 4242", "ALEX RIVERA", "04/29", "Another bank (added card)", "Active",
            "Yes: it cannot be used or activated",
        ])
        #expect(vm.hint == "Unfreeze it with f.")
    }

    @Test("what f and d would do to this card: f worded by its state, d only for an added card")
    func keys() {
        let sut = makeSUT()
        var frozen = Seeds.externalCard
        frozen.frozen = true
        sut.presentUpdate(response: .init(state: .init(card: Seeds.issuedCard)))
        sut.presentUpdate(response: .init(state: .init(card: frozen)))
        #expect(display.displayUpdateCalls.map(\.freezeHelp) == ["freeze card", "unfreeze card"])
        #expect(display.displayUpdateCalls.map(\.canRemove) == [false, true])
        #expect(display.displayUpdateCalls.map(\.banner) == [nil, nil])
        #expect(display.displayUpdateCalls.map(\.busyText) == [nil, nil])
    }

    @Test("a change on its way, landed, or refused is said")
    func changes() {
        let sut = makeSUT()
        var frozen = Seeds.externalCard
        frozen.frozen = true
        var state = CardDetail.State(card: Seeds.externalCard)
        for (change, text) in [
            (Cards.Change.freeze(Seeds.externalCard), "Freezing…"), (.unfreeze(frozen), "Unfreezing…"), (.remove(Seeds.externalCard), "Removing…"),
        ] {
            state.changing = change
            sut.presentUpdate(response: .init(state: state))
            #expect(display.displayUpdateCalls.last?.busyText == text)
        }
        state.changing = nil
        state.card = frozen
        state.notice = .changed(frozen)
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.info, "Visa •••• 4242 frozen."))
        state.notice = nil
        state.error = .unreachable
        sut.presentUpdate(response: .init(state: state))
        #expect(display.displayUpdateCalls.last?.banner == BannerMessage(.error, "Can't reach the server. Check the connection and try again."))
    }

    @Test("the removal question is Cards' own: Remove or Keep, naming the card")
    func removeQuestion() {
        makeSUT().presentRemove(response: .init(card: Seeds.externalCard))
        #expect(display.displayRemoveCalls == [.init(
            title: "Remove card", message: "Remove Visa •••• 4242 from your account?", confirm: "Remove", cancel: "Keep",
            cardID: "c_ext"
        )])
    }
}
