import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class RegisterDisplaySpy: RegisterDisplayLogic {
    var loads: [Register.Load.ViewModel] = []
    var validations: [Register.ValidateField.ViewModel] = []
    var submits: [Register.Submit.ViewModel] = []
    func displayLoad(viewModel: Register.Load.ViewModel) { loads.append(viewModel) }
    func displayValidateField(viewModel: Register.ValidateField.ViewModel) { validations.append(viewModel) }
    func displaySubmit(viewModel: Register.Submit.ViewModel) { submits.append(viewModel) }
}

@MainActor
@Suite("RegisterPresenter")
struct RegisterPresenterTests {
    let display = RegisterDisplaySpy()
    func makeSUT() -> RegisterPresenter {
        let sut = RegisterPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("prefills the number and defaults the country code")
    func load() {
        makeSUT().presentLoad(response: .init(prefill: LastLogin(countryCode: "", phoneNumber: "2025550199")))
        #expect(display.loads.last == .init(countryCode: "+1", phoneNumber: "2025550199"))
    }

    @Test("an existing account is pointed out on the number field")
    func conflict() {
        makeSUT().presentSubmit(response: .failed(.conflict(detail: "exists")))
        #expect(display.submits.last?.fieldErrors[.phoneNumber]?.contains("already has an account") == true)
        #expect(display.submits.last?.focus == .phoneNumber)
    }

    @Test("field problems are worded and focus the first")
    func invalid() {
        makeSUT().presentSubmit(response: .invalid([.confirmPassword: .passwordsDiffer, .fullName: .fullName(.empty)]))
        #expect(display.submits.last?.fieldErrors == [.confirmPassword: "The two passwords differ.", .fullName: "Enter your full name."])
        #expect(display.submits.last?.focus == .fullName)
    }

    @Test("busy while the request runs")
    func started() {
        makeSUT().presentSubmit(response: .started)
        #expect(display.submits.last?.isBusy == true)
    }
}
