import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("LoginInteractor", .timeLimit(.minutes(3)))
struct LoginInteractorTests {
    let presenter = LoginPresentationLogicSpy()
    let auth = AuthWorkerDouble()
    let tasks = TaskTracker()
    let sessions = SessionStoreDouble()
    let preferences = PreferencesStoreDouble(LastLogin(countryCode: "+44", phoneNumber: "7700 900123"))
    let sleeps = SleepCounter()
    var routes: [LoginRoute] = []

    func makeSUT() -> LoginInteractor {
        LoginInteractor(
            presenter: presenter, auth: auth, sessions: sessions, preferences: preferences,
            demo: Seeds.demo, clock: .immediate(sleeps), tasks: tasks
        )
    }

    let goodForm = Login.Form(countryCode: "+1", phoneNumber: "202 555 0143", password: "sail-away-2026")

    @Test("load presents the last number used and the demo credentials")
    func load() {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.count == 1)
        #expect(presenter.presentLoadCalls.first?.lastLogin == LastLogin(countryCode: "+44", phoneNumber: "7700 900123"))
        #expect(presenter.presentLoadCalls.first?.demo == Seeds.demo)
    }

    @Test("a changed password remembers the number and says so")
    func passwordChanged() {
        let sut = makeSUT()
        sut.passwordChanged(request: .init(login: LastLogin(countryCode: "+1", phoneNumber: "2025550143")))
        #expect(preferences.lastLogin() == LastLogin(countryCode: "+1", phoneNumber: "2025550143"))
        #expect(presenter.presentLoadCalls.last?.notice == .passwordChanged)
        #expect(presenter.presentLoadCalls.last?.lastLogin?.phoneNumber == "2025550143")
    }

    @Test("leaving a field checks only that field")
    func validateField() {
        let sut = makeSUT()
        sut.validateField(request: .init(field: .phoneNumber, form: .init(countryCode: "+1", phoneNumber: "12", password: "")))
        #expect(presenter.presentValidateFieldCalls.first?.field == .phoneNumber)
        #expect(presenter.presentValidateFieldCalls.first?.problem == .phone(.wrongLength(expected: 10...10)))
        sut.validateField(request: .init(field: .countryCode, form: .init(countryCode: "+1", phoneNumber: "12", password: "")))
        #expect(presenter.presentValidateFieldCalls.last?.problem == nil)
    }

    @Test("an invalid form is refused without calling the server")
    func invalidForm() {
        let sut = makeSUT()
        sut.submit(request: .init(form: .init(countryCode: "", phoneNumber: "abc", password: "")))
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .invalid, got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems[.countryCode] == .phone(.emptyCountryCode))
        #expect(problems[.password] == .password(.empty))
        #expect(auth.logins.count == 0)
    }

    @Test("a good login stores the session and the number, then routes to Home")
    func success() async {
        auth.loginResult.set(.success(Seeds.session))
        var routes: [LoginRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.submit(request: .init(form: goodForm))
        #expect(presenter.presentSubmitCalls.first.map { if case .started = $0 { true } else { false } } == true)
        await tasks.settle()
        #expect(auth.logins.last?.phone.e164 == "+12025550143")
        #expect(auth.logins.last?.password == "sail-away-2026")
        #expect(sessions.load() == Seeds.session)
        #expect(preferences.lastLogin() == LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        guard case .loggedIn(let session) = routes.last else {
            Issue.record("expected .loggedIn, got \(routes)")
            return
        }
        #expect(session == Seeds.session)
    }

    @Test("wrong credentials are reported and nothing is stored")
    func wrongCredentials() async {
        auth.loginResult.set(.failure(.unauthorised))
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        await tasks.settle()
        guard case .failed(.unauthorised) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .failed(.unauthorised), got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(sessions.load() == nil)
    }

    @Test("a lock-out counts down every second and then lets the person try again")
    func throttled() async {
        auth.loginResult.set(.failure(.throttled(retryAfterSeconds: 3)))
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        await tasks.settle()
        await sut.countdownTask?.value
        #expect(presenter.presentThrottleCalls.map(\.remainingSeconds) == [2, 1, 0])
        #expect(presenter.calls == ["presentSubmit", "presentSubmit", "presentThrottle", "presentThrottle", "presentThrottle"])
        #expect(sleeps.count == 3)
    }

    @Test("submitting while locked out does not call the server")
    func submitWhileLocked() async {
        auth.loginResult.set(.failure(.throttled(retryAfterSeconds: 60)))
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        await tasks.settle()
        sut.countdownTask?.cancel()
        sut.submit(request: .init(form: goodForm))
        #expect(auth.logins.count == 1)
        #expect(presenter.presentThrottleCalls.last?.remainingSeconds == 60)
    }

    @Test("server field errors land on their fields")
    func serverFieldErrors() async {
        auth.loginResult.set(.failure(.validation(detail: "Invalid", fields: [FieldError(field: "phoneNumber", message: "Not a number we can reach.")])))
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        await tasks.settle()
        guard case .invalid(let problems) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .invalid, got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(problems == [.phoneNumber: .server("Not a number we can reach.")])
    }

    @Test("Esc during the request cancels it")
    func cancel() async {
        let gate = Gate()
        auth.gate = gate
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        sut.back(request: .init())
        await tasks.settle()
        guard case .failed(.cancelled) = presenter.presentSubmitCalls.last else {
            Issue.record("expected .failed(.cancelled), got \(presenter.presentSubmitCalls)")
            return
        }
        #expect(sessions.load() == nil)
    }

    @Test("when the scene goes away its running request is cancelled")
    func cancelledWhenGone() async {
        let gate = Gate()
        auth.gate = gate
        var sut: LoginInteractor? = makeSUT()
        sut?.submit(request: .init(form: goodForm))
        sut = nil
        await tasks.settle()
        #expect(auth.logins.count == 1)
        #expect(sessions.load() == nil)
        #expect(!presenter.presentSubmitCalls.contains { if case .succeeded = $0 { true } else { false } })
    }

    @Test("a second Enter while a request runs sends nothing more")
    func doubleSubmit() async {
        auth.loginResult.set(.success(Seeds.session))
        let gate = Gate()
        auth.gate = gate
        let sut = makeSUT()
        sut.submit(request: .init(form: goodForm))
        sut.submit(request: .init(form: goodForm))
        gate.open()
        await tasks.settle()
        #expect(auth.logins.count == 1)
    }

    @Test("links carry what was typed to Register and Forgot password")
    func navigate() {
        var routes: [LoginRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.navigate(request: .init(destination: .forgotPassword, form: goodForm))
        sut.navigate(request: .init(destination: .register, form: goodForm))
        guard case .forgotPassword(let prefill) = routes.first, case .register = routes.last else {
            Issue.record("unexpected routes \(routes)")
            return
        }
        #expect(prefill == LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
    }
}
