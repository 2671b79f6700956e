import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("VerifyPhonePresenter")
struct VerifyPhonePresenterTests {
    let display = VerifyPhoneDisplayLogicSpy()
    func makeSUT() -> VerifyPhonePresenter {
        let sut = VerifyPhonePresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("says where the code went and until when it works")
    func load() {
        makeSUT().presentLoad(response: .init(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: "654321"))
        #expect(display.displayLoadCalls.last?.instructions == "We sent a 6-digit code to +1 202 555 0143. It works until 12:10.")
        #expect(display.displayLoadCalls.last?.developmentBanner == BannerMessage(.info, "Development server: the code is 654321"))
    }

    @Test("a refused code is shown on the field and the field is cleared")
    func refused() {
        makeSUT().presentSubmit(response: .failed(.validation(detail: "Wrong code", fields: [])))
        #expect(display.displaySubmitCalls.last?.fieldErrors[.code] == "Wrong code")
        #expect(display.displaySubmitCalls.last?.clear == [.code])
    }

    @Test("a lock-out is a banner with the wait")
    func throttled() {
        makeSUT().presentSubmit(response: .failed(.throttled(retryAfterSeconds: 30)))
        #expect(display.displaySubmitCalls.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 0:30."))
    }

    @Test("leaving the code field shows its problem there, or clears it")
    func validateField() {
        let sut = makeSUT()
        sut.presentValidateField(response: .init(field: .code, problem: .code(.malformed)))
        sut.presentValidateField(response: .init(field: .code, problem: nil))
        #expect(display.displayValidateFieldCalls.map(\.message) == [OneTimeCode.Problem.malformed.message, nil])
    }

    @Test("a code the server refused is shown on the field and cleared; one the app refused stays to be corrected")
    func invalid() {
        let sut = makeSUT()
        sut.presentSubmit(response: .invalid([.code: .server("This code has expired.")]))
        #expect(display.displaySubmitCalls.last?.fieldErrors == [.code: "This code has expired."])
        #expect(display.displaySubmitCalls.last?.clear == [.code])
        sut.presentSubmit(response: .invalid([.code: .code(.malformed)]))
        #expect(display.displaySubmitCalls.last?.fieldErrors == [.code: OneTimeCode.Problem.malformed.message])
        #expect(display.displaySubmitCalls.last?.clear == [])
    }
}
