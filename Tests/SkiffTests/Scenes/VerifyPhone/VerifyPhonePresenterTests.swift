import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class VerifyPhoneDisplaySpy: VerifyPhoneDisplayLogic {
    var loads: [VerifyPhone.Load.ViewModel] = []
    var submits: [VerifyPhone.Submit.ViewModel] = []
    func displayLoad(viewModel: VerifyPhone.Load.ViewModel) { loads.append(viewModel) }
    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel) { submits.append(viewModel) }
}

@MainActor
@Suite("VerifyPhonePresenter")
struct VerifyPhonePresenterTests {
    let display = VerifyPhoneDisplaySpy()
    func makeSUT() -> VerifyPhonePresenter {
        let sut = VerifyPhonePresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("says where the code went and until when it works")
    func load() {
        makeSUT().presentLoad(response: .init(phone: Seeds.phone, challenge: Seeds.challenge, developmentCode: "654321"))
        #expect(display.loads.last?.instructions == "We sent a 6-digit code to +1 202 555 0143. It works until 12:10.")
        #expect(display.loads.last?.developmentBanner == BannerMessage(.info, "Development server: the code is 654321"))
    }

    @Test("a refused code is shown on the field and the field is cleared")
    func refused() {
        makeSUT().presentSubmit(response: .failed(.validation(detail: "Wrong code", fields: [])))
        #expect(display.submits.last?.codeError == "Wrong code")
        #expect(display.submits.last?.clearCode == true)
    }

    @Test("a lock-out is a banner with the wait")
    func throttled() {
        makeSUT().presentSubmit(response: .failed(.throttled(retryAfterSeconds: 30)))
        #expect(display.submits.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 0:30."))
    }
}
