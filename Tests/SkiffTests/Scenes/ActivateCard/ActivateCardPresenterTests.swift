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
        makeSUT().presentSubmit(response: .succeeded(.codeSent(Seeds.challenge, developmentCode: "135790")))
        #expect(display.displaySubmitCalls.last?.stage == .code)
        #expect(display.displaySubmitCalls.last?.form.instructions == "We sent a 6-digit code to your phone. It works until 12:10.")
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(.info, "Development server: the code is 135790"))
    }

    @Test("a refused code clears the code field")
    func refusedCode() {
        let sut = makeSUT()
        sut.presentSubmit(response: .succeeded(.codeSent(Seeds.challenge, developmentCode: nil)))
        sut.presentSubmit(response: .failed(.validation(detail: "Wrong code", fields: [])))
        #expect(display.displaySubmitCalls.last?.form.fieldErrors == [.code: "Wrong code"])
        #expect(display.displaySubmitCalls.last?.form.clear == [.code])
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
