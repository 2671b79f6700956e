import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("CardsPanelPresenter")
struct CardsPanelPresenterTests {
    let display = CardsPanelDisplayLogicSpy()

    /// What the panel shows for `cards`, once they are known.
    func present(_ cards: [Card], isKnown: Bool = true) -> CardsPanel.UpdateViewModel? {
        let sut = CardsPanelPresenter(formatting: Seeds.utc)
        sut.viewController = display
        sut.presentUpdate(response: .init(state: CardsPanel.State(cards: cards, isKnown: isKnown)))
        return display.displayUpdateCalls.last
    }

    @Test("a line per card: its masked name, where it came from and when it expires, its status; the inactive Skiff card prompts activation")
    func rows() throws {
        let vm = try #require(present([Seeds.issuedCard, Seeds.externalCard]))
        #expect(vm.cards == [
            .init(
                title: "Visa •••• 0005", summary: "Skiff card · expires 11/30",
                status: PromptedText("Inactive.", prompts: [KeyPrompt(.activateCard, "activate")]), needsActivation: true
            ),
            .init(title: "Visa •••• 4242", summary: "Added card · expires 04/29", status: PromptedText("Active"), needsActivation: false),
        ])
        #expect(vm.emptyText == nil)
    }

    @Test("a frozen card says Frozen and is not offered for activation")
    func frozen() {
        var frozenIssued = Seeds.issuedCard
        frozenIssued.frozen = true
        let vm = present([frozenIssued, Seeds.frozenCard])
        #expect(vm?.cards.map(\.status) == [PromptedText("Frozen"), PromptedText("Frozen")])
        #expect(vm?.cards.map(\.needsActivation) == [false, false])
        #expect(vm?.cards[1].title == "Mastercard •••• 4444")
    }

    @Test("the Skiff card once active asks for nothing")
    func active() {
        var active = Seeds.issuedCard
        active.status = .active
        #expect(present([active])?.cards.first?.status == PromptedText("Active"))
        #expect(present([active])?.cards.first?.needsActivation == false)
    }

    @Test("no cards: a line saying how to add one, once the cards are known; nothing before")
    func noCards() {
        #expect(present([])?.emptyText == PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]))
        #expect(present([], isKnown: false)?.emptyText == nil)
        #expect(present([], isKnown: false)?.cards == [])
    }
}
