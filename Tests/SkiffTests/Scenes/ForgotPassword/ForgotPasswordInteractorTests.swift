import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("ForgotPasswordInteractor", .timeLimit(.minutes(3)))
struct ForgotPasswordInteractorTests {
    let presenter = ForgotPasswordPresentationLogicSpy()
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
        #expect(presenter.presentSubmitCalls.map(\.stage) == [.phone, .reset], "the code's answer is at the reset stage")
        guard case .succeeded(.codeSent(_, _, "246810")) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
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
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
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
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last?.outcome else {
            Issue.record("got \(presenter.presentSubmitCalls)")
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
