import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("ForgotPasswordPresenter")
struct ForgotPasswordPresenterTests {
    let display = ForgotPasswordDisplayLogicSpy()
    func makeSUT() -> ForgotPasswordPresenter {
        let sut = ForgotPasswordPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("code sent moves to the reset stage without saying whether the number has an account")
    func codeSent() {
        makeSUT().presentSubmit(response: .init(
            .succeeded(.codeSent(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: "246810")), at: .reset
        ))
        let vm = display.displaySubmitCalls.last
        #expect(vm?.stage == .reset)
        #expect(vm?.form.instructions == "If +1 202 555 0143 has an account, we sent it a 6-digit code. It works until 12:10.")
        #expect(vm?.form.banner == BannerMessage(.info, "Development server: the code is 246810"))
        #expect(vm?.form.focus == .code)
    }

    @Test("a refused reset clears the secrets, at the stage the answer names with nothing said before")
    func refused() {
        let sut = makeSUT()
        sut.presentSubmit(response: .init(.failed(.validation(detail: "The code is wrong or expired.", fields: [])), at: .reset))
        #expect(display.displaySubmitCalls.last?.stage == .reset)
        #expect(display.displaySubmitCalls.last?.form.clear == [.code, .newPassword, .confirmPassword])
        #expect(display.displaySubmitCalls.last?.form.banner == BannerMessage(.error, "The code is wrong or expired."))
    }
}
