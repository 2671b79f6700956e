import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("ActivateCardPresenter")
struct ActivateCardPresenterTests {
    let display = ActivateCardDisplayLogicSpy()
    func makeSUT() -> ActivateCardPresenter {
        let sut = ActivateCardPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("the title names the masked card")
    func load() {
        makeSUT().presentLoad(response: .init(card: Seeds.issuedCard))
        #expect(display.displayLoadCalls.last?.title == "Activate Visa •••• 0005")
    }

    @Test("code sent moves to the code stage with the development code")
    func codeSent() {
        makeSUT().presentSubmit(response: .init(.succeeded(.codeSent(Seeds.challenge, developmentCode: "135790")), at: .code))
        #expect(display.displaySubmitCalls.last?.stage == .code)
        #expect(display.displaySubmitCalls.last?.form.instructions == "We sent a 6-digit code to your phone. It works until 12:10.")
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(.info, "Development server: the code is 135790"))
    }

    @Test("a refusal is worded on the field of the stage the answer names, with nothing said before: the code emptied, or the digits")
    func refusedAtStage() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.failed(.validation(detail: "Wrong code", fields: [])), at: .code))
        #expect(display.displaySubmitCalls.last?.stage == .code)
        #expect(display.displaySubmitCalls.last?.form.fieldErrors == [.code: "Wrong code"])
        #expect(display.displaySubmitCalls.last?.form.clear == [.code])
        sut.presentSubmit(response: .init(.failed(.validation(detail: "Not these digits", fields: [])), at: .last4))
        #expect(display.displaySubmitCalls.last?.stage == .last4)
        #expect(display.displaySubmitCalls.last?.form.fieldErrors == [.last4: "Not these digits"])
        #expect(display.displaySubmitCalls.last?.form.clear == [])
    }

    @Test("leaving a field shows its problem there, or clears it")
    func validateField() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .last4, problem: .last4(.malformed)))
        sut.presentValidateField(response: .init(field: .last4, problem: nil))
        #expect(display.displayValidateFieldCalls == [
            .init(field: .last4, message: "Enter the last four digits printed on the card."), .init(field: .last4, message: nil),
        ])
    }
}
