import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("LoginPresenter")
struct LoginPresenterTests {
    let display = LoginDisplayLogicSpy()
    func makeSUT() -> LoginPresenter {
        let sut = LoginPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("defaults to +1 and shows the demo hint with a readable number")
    func loadDefaults() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: nil, demo: Seeds.demo, notice: nil))
        #expect(display.displayLoadCalls.last == .init(
            countryCode: "+1", phoneNumber: "",
            hint: "Demo account: +1 202 555 0143 · password sail-away-2026", notice: nil
        ))
    }

    @Test("prefills the last number and shows no hint against a remote server")
    func loadLastLogin() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: LastLogin(countryCode: "+44", phoneNumber: "7700900123"), demo: nil, notice: nil))
        #expect(display.displayLoadCalls.last == .init(countryCode: "+44", phoneNumber: "7700900123", hint: nil, notice: nil))
    }

    @Test("says why Login is back: session ended, password changed")
    func notices() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: nil, demo: nil, notice: .sessionEnded))
        #expect(display.displayLoadCalls.last?.notice == BannerMessage(.error, "Your session has ended. Please log in again."))
        sut.presentLoad(response: .init(lastLogin: nil, demo: nil, notice: .passwordChanged))
        #expect(display.displayLoadCalls.last?.notice == BannerMessage(.info, "Your password was changed. Log in with the new one."))
    }

    @Test("words field problems and focuses the first bad field")
    func invalid() {
        let sut = makeSUT()
        sut.presentSubmit(response: .invalid([.password: .password(.empty), .phoneNumber: .phone(.empty)]))
        let vm = display.displaySubmitCalls.last
        #expect(vm?.fieldErrors == [.password: "Enter a password.", .phoneNumber: "Enter a phone number."])
        #expect(vm?.focus == .phoneNumber)
        #expect(vm?.isBusy == false)
    }

    @Test("wrong credentials say so without telling which part was wrong, and clear the password")
    func unauthorised() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.unauthorised))
        #expect(display.displaySubmitCalls.last?.banner == BannerMessage(.error, "The phone number or password is incorrect."))
        #expect(display.displaySubmitCalls.last?.clear == [.password])
        #expect(display.displaySubmitCalls.last?.focus == .password)
    }

    @Test("an unreachable server keeps the form and offers to retry")
    func unreachable() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.unreachable))
        #expect(display.displaySubmitCalls.last?.banner?.content.prompts == [KeyPrompt(.retry, "retry")])
        #expect(display.displaySubmitCalls.last?.clear == [])
    }

    @Test("a cancelled request shows no error")
    func cancelled() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.cancelled))
        #expect(display.displaySubmitCalls.last?.banner == nil)
        #expect(display.displaySubmitCalls.last?.isBusy == false)
    }

    @Test("started shows the spinner")
    func started() {
        let sut = makeSUT()
        sut.presentSubmit(response: .started)
        #expect(display.displaySubmitCalls.last?.isBusy == true)
    }

    @Test("the lock-out counts down in minutes and seconds")
    func throttle() {
        let sut = makeSUT()
        sut.presentThrottle(response: .init(remainingSeconds: 125))
        #expect(display.displayThrottleCalls.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 2:05."))
        sut.presentThrottle(response: .init(remainingSeconds: 0))
        #expect(display.displayThrottleCalls.last?.banner == BannerMessage(.info, "You can try again now."))
    }
}
