import SkiffCore
import Testing
@testable import Skiff

@MainActor
final class LoginDisplaySpy: LoginDisplayLogic {
    var loads: [Login.Load.ViewModel] = []
    var validations: [Login.ValidateField.ViewModel] = []
    var submits: [Login.Submit.ViewModel] = []
    var throttles: [Login.Throttle.ViewModel] = []
    func displayLoad(viewModel: Login.Load.ViewModel) { loads.append(viewModel) }
    func displayValidateField(viewModel: Login.ValidateField.ViewModel) { validations.append(viewModel) }
    func displaySubmit(viewModel: Login.Submit.ViewModel) { submits.append(viewModel) }
    func displayThrottle(viewModel: Login.Throttle.ViewModel) { throttles.append(viewModel) }
}

@MainActor
@Suite("LoginPresenter")
struct LoginPresenterTests {
    let display = LoginDisplaySpy()
    func makeSUT() -> LoginPresenter {
        let sut = LoginPresenter(formatting: Seeds.utc)
        sut.viewController = display
        return sut
    }

    @Test("defaults to +1 and shows the demo hint with a readable number")
    func loadDefaults() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: nil, demo: Seeds.demo, notice: nil))
        #expect(display.loads.last == .init(
            countryCode: "+1", phoneNumber: "",
            hint: "Demo account: +1 202 555 0143 · password sail-away-2026", notice: nil
        ))
    }

    @Test("prefills the last number and shows no hint against a remote server")
    func loadLastLogin() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: LastLogin(countryCode: "+44", phoneNumber: "7700900123"), demo: nil, notice: nil))
        #expect(display.loads.last == .init(countryCode: "+44", phoneNumber: "7700900123", hint: nil, notice: nil))
    }

    @Test("says why Login is back: session ended, password changed")
    func notices() {
        let sut = makeSUT()
        sut.presentLoad(response: .init(lastLogin: nil, demo: nil, notice: .sessionEnded))
        #expect(display.loads.last?.notice == BannerMessage(.error, "Your session has ended. Please log in again."))
        sut.presentLoad(response: .init(lastLogin: nil, demo: nil, notice: .passwordChanged))
        #expect(display.loads.last?.notice == BannerMessage(.info, "Your password was changed. Log in with the new one."))
    }

    @Test("words field problems and focuses the first bad field")
    func invalid() {
        let sut = makeSUT()
        sut.presentSubmit(response: .invalid([.password: .password(.empty), .phoneNumber: .phone(.empty)]))
        let vm = display.submits.last
        #expect(vm?.fieldErrors == [.password: "Enter a password.", .phoneNumber: "Enter your phone number."])
        #expect(vm?.focus == .phoneNumber)
        #expect(vm?.isBusy == false)
    }

    @Test("wrong credentials say so without telling which part was wrong, and clear the password")
    func unauthorised() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.unauthorised))
        #expect(display.submits.last?.banner == BannerMessage(.error, "The phone number or password is incorrect."))
        #expect(display.submits.last?.clearPassword == true)
        #expect(display.submits.last?.focus == .password)
    }

    @Test("an unreachable server keeps the form and offers to retry")
    func unreachable() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.unreachable))
        #expect(display.submits.last?.banner?.content.prompts == [KeyPrompt(.retry, "retry")])
        #expect(display.submits.last?.clearPassword == false)
    }

    @Test("a cancelled request shows no error")
    func cancelled() {
        let sut = makeSUT()
        sut.presentSubmit(response: .failed(.cancelled))
        #expect(display.submits.last?.banner == nil)
        #expect(display.submits.last?.isBusy == false)
    }

    @Test("started shows the spinner")
    func started() {
        let sut = makeSUT()
        sut.presentSubmit(response: .started)
        #expect(display.submits.last?.isBusy == true)
    }

    @Test("the lock-out counts down in minutes and seconds")
    func throttle() {
        let sut = makeSUT()
        sut.presentThrottle(response: .init(remainingSeconds: 125))
        #expect(display.throttles.last?.banner == BannerMessage(.error, "Too many attempts. Try again in 2:05."))
        sut.presentThrottle(response: .init(remainingSeconds: 0))
        #expect(display.throttles.last?.banner == BannerMessage(.info, "You can try again now."))
    }
}
