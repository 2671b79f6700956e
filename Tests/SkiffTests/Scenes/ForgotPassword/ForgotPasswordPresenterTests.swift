import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class ForgotPasswordDisplaySpy: ForgotPasswordDisplayLogic {
    var loads: [ForgotPassword.Load.ViewModel] = []
    var validations: [ForgotPassword.ValidateField.ViewModel] = []
    var submits: [ForgotPassword.Submit.ViewModel] = []
    func displayLoad(viewModel: ForgotPassword.Load.ViewModel) { loads.append(viewModel) }
    func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel) { validations.append(viewModel) }
    func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel) { submits.append(viewModel) }
}

@MainActor
@Suite("ForgotPasswordPresenter")
struct ForgotPasswordPresenterTests {
    let display = ForgotPasswordDisplaySpy()
    func makeSUT() -> ForgotPasswordPresenter {
        let sut = ForgotPasswordPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("code sent moves to the reset stage without saying whether the number has an account")
    func codeSent() {
        makeSUT().presentSubmit(response: .codeSent(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: "246810"))
        let vm = display.submits.last
        #expect(vm?.stage == .reset)
        #expect(vm?.instructions == "If +1 202 555 0143 has an account, we sent it a 6-digit code. It works until 12:10.")
        #expect(vm?.banner == BannerMessage(.info, "Development server: the code is 246810"))
        #expect(vm?.focus == .code)
    }

    @Test("a refused reset clears the secrets")
    func refused() {
        let sut = makeSUT()
        sut.presentSubmit(response: .codeSent(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: nil))
        sut.presentSubmit(response: .failed(.validation(detail: "The code is wrong or expired.", fields: [])))
        #expect(display.submits.last?.stage == .reset)
        #expect(display.submits.last?.clearSecrets == true)
        #expect(display.submits.last?.banner == BannerMessage(.error, "The code is wrong or expired."))
    }
}
