import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("RegisterPresenter")
struct RegisterPresenterTests {
    let display = RegisterDisplayLogicSpy()
    func makeSUT() -> RegisterPresenter {
        let sut = RegisterPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("prefills the number and defaults the country code")
    func load() {
        makeSUT().presentLoad(response: .init(prefill: LastLogin(countryCode: "", phoneNumber: "2025550199")))
        #expect(display.displayLoadCalls.last == .init(countryCode: "+1", phoneNumber: "2025550199"))
    }

    @Test("an existing account is pointed out on the number field")
    func conflict() {
        makeSUT().presentSubmit(response: .failed(.conflict(detail: "exists")))
        #expect(display.displaySubmitCalls.last?.fieldErrors[.phoneNumber]?.contains("already has an account") == true)
        #expect(display.displaySubmitCalls.last?.focus == .phoneNumber)
    }

    @Test("field problems are worded and focus the first")
    func invalid() {
        makeSUT().presentSubmit(response: .invalid([.confirmPassword: .passwordsDiffer, .fullName: .fullName(.empty)]))
        #expect(display.displaySubmitCalls.last?.fieldErrors == [.confirmPassword: "The two passwords differ.", .fullName: "Enter your full name."])
        #expect(display.displaySubmitCalls.last?.focus == .fullName)
    }

    @Test("busy while the request runs")
    func started() {
        makeSUT().presentSubmit(response: .started)
        #expect(display.displaySubmitCalls.last?.isBusy == true)
    }
}
