import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class ForgotPasswordPresenterSpy: ForgotPasswordPresentationLogic {
    var loads: [ForgotPassword.Load.Response] = []
    var validations: [ForgotPassword.ValidateField.Response] = []
    var submits: [ForgotPassword.Submit.Response] = []
    func presentLoad(response: ForgotPassword.Load.Response) { loads.append(response) }
    func presentValidateField(response: ForgotPassword.ValidateField.Response) { validations.append(response) }
    func presentSubmit(response: ForgotPassword.Submit.Response) { submits.append(response) }
}

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
@Suite("ForgotPasswordInteractor", .timeLimit(.minutes(1)))
struct ForgotPasswordInteractorTests {
    let presenter = ForgotPasswordPresenterSpy()
    let auth = AuthWorkerDouble.succeeding
    let outbox = OutboxDouble(code: "246810")
    let tasks = TaskTracker()

    func makeSUT(makeKey: @escaping () -> String = { "reset-key" }) -> ForgotPasswordInteractor {
        ForgotPasswordInteractor(
            presenter: presenter, auth: auth, codes: DevelopmentCodes(outbox: outbox, clock: .immediate()), prefill: nil,
            tasks: tasks, makeKey: makeKey
        )
    }

    @Test("a reset sent again unchanged carries the same Idempotency-Key; a changed one a new key")
    func resetRetryKeepsKey() async {
        var made = 0
        let sut = makeSUT(makeKey: { made += 1; return "key-\(made)" })
        auth.resetResult.set(.failure(.timeout))
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143")))
        await tasks.settle()
        let form = ForgotPassword.Form(
            countryCode: "+1", phoneNumber: "2025550143", code: "246810", newPassword: "new-harbour-22", confirmPassword: "new-harbour-22"
        )
        sut.submit(request: .init(form: form))
        await tasks.settle()
        sut.submit(request: .init(form: form))
        await tasks.settle()
        var changed = form
        changed.newPassword = "new-harbour-23"
        changed.confirmPassword = "new-harbour-23"
        sut.submit(request: .init(form: changed))
        await tasks.settle()
        #expect(auth.resets.all.map(\.3) == ["key-1", "key-1", "key-2"])
    }

    @Test("the number stage asks for a code and moves to the reset stage")
    func requestCode() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143")))
        await tasks.settle()
        #expect(auth.forgots.last?.e164 == "+12025550143")
        #expect(sut.stage == .reset)
        guard case .codeSent(_, _, "246810") = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(outbox.asked.last?.purpose == "password-reset")
    }

    @Test("the reset stage checks code, new password and repetition")
    func resetChecks() async {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143")))
        await tasks.settle()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143", code: "12", newPassword: "short", confirmPassword: "x")))
        guard case .invalid(let problems) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(problems == [.code: .code(.malformed), .newPassword: .password(.tooShort), .confirmPassword: .passwordsDiffer])
        #expect(auth.resets.count == 0)
    }

    @Test("a good reset routes back to Login with the number")
    func reset() async {
        var routes: [ForgotPasswordRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143")))
        await tasks.settle()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "2025550143", code: "246810", newPassword: "new-harbour-22", confirmPassword: "new-harbour-22")))
        await tasks.settle()
        #expect(auth.resets.last?.0 == "v_1")
        #expect(auth.resets.last?.2 == "new-harbour-22")
        guard case .passwordReset(let login) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        #expect(login == LastLogin(countryCode: "+1", phoneNumber: "2025550143"))
    }

    @Test("a bad number is refused without a request")
    func badNumber() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(countryCode: "+1", phoneNumber: "555")))
        guard case .invalid(let problems) = presenter.submits.last else {
            Issue.record("got \(presenter.submits)")
            return
        }
        #expect(problems[.phoneNumber] != nil)
        #expect(auth.forgots.count == 0)
    }

    @Test("Esc when idle leaves the scene")
    func back() {
        var routes: [ForgotPasswordRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.back(request: .init())
        guard case .back = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }
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
