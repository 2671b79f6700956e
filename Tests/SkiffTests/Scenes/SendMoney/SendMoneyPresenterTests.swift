import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Send money presenter")
struct SendMoneyPresenterTests {
    let display = SendMoneyDisplayLogicSpy()

    func makeSUT() -> SendMoneyPresenter {
        let sut = SendMoneyPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("a refused form is worded field by field, with the cursor on the first refused field")
    func invalid() {
        makeSUT().presentSubmit(response: .invalid([.note: .server("Not this one.")]))
        #expect(display.displaySubmitCalls.last == .init(fieldErrors: [.note: "Not this one."], focus: .note))
    }

    @Test("sending shows the form busy, and done clears it")
    func busy() {
        let sut = makeSUT()
        sut.presentSubmit(response: .started)
        sut.presentSubmit(response: .succeeded(()))
        #expect(display.displaySubmitCalls.map(\.isBusy) == [true, false])
    }

    @Test("a call that failed is worded in a banner that says how to try again")
    func failed() {
        makeSUT().presentSubmit(response: .failed(.unreachable))
        let banner = display.displaySubmitCalls.last?.banner
        #expect(banner?.kind == .error)
        #expect(banner?.content.prompts == [KeyPrompt(.submit, "try again")])
    }

    @Test("one field's problem is worded under that field, and no problem clears it")
    func validateField() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .countryCode, problem: .server("Not this one.")))
        sut.presentValidateField(response: .init(field: .countryCode, problem: nil))
        #expect(display.displayValidateFieldCalls == [
            .init(field: .countryCode, message: "Not this one."), .init(field: .countryCode, message: nil),
        ])
    }

    @Test("the presenter holds its view weakly")
    func weakView() {
        let sut = SendMoneyPresenter()
        var display: SendMoneyDisplayLogicSpy? = SendMoneyDisplayLogicSpy()
        sut.viewController = display
        display = nil
        #expect(sut.viewController == nil)
    }
}
