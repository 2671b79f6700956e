import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol LoginBusinessLogic: FormBusinessLogic where Field == Login.Field, Form == Login.Form {
    func load(request: Login.Load.Request)
    func validateField(request: Login.ValidateField.Request)
    func submit(request: Login.Submit.Request)
    func back(request: Login.Back.Request)
    func navigate(request: Login.Navigate.Request)
    func passwordChanged(request: Login.PasswordChanged.Request)
}

/// Where Login sends the person next.
enum LoginRoute: Sendable {
    case loggedIn(Session)
    case register(prefill: LastLogin)
    case forgotPassword(prefill: LastLogin)
}

/// Checks the form, signs in through the auth worker, keeps the session and the last number, and counts down a
/// lock-out.
@MainActor
final class LoginInteractor: LoginBusinessLogic {
    private let presenter: any LoginPresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    private let preferences: any PreferencesStoring
    private let demo: DemoCredentials?
    private let notice: Login.Notice?
    private let clock: SceneClock
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    var route: (LoginRoute) -> Void = { _ in }

    let inFlight: RequestInFlight
    private(set) var countdownTask: Task<Void, Never>?
    private var lockedUntil: Date?

    init(
        presenter: any LoginPresentationLogic, auth: any AuthWorking, sessions: any SessionStoring,
        preferences: any PreferencesStoring, demo: DemoCredentials?, notice: Login.Notice? = nil, clock: SceneClock = .live,
        tasks: TaskTracker
    ) {
        self.notice = notice
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        self.preferences = preferences
        self.demo = demo
        self.clock = clock
        inFlight = RequestInFlight(tasks: tasks)
    }

    isolated deinit { countdownTask?.cancel() }

    func load(request: Login.Load.Request) {
        presenter.presentLoad(response: .init(lastLogin: preferences.lastLogin(), demo: demo, notice: notice))
    }

    func passwordChanged(request: Login.PasswordChanged.Request) {
        preferences.saveLastLogin(request.login)
        presenter.presentLoad(response: .init(lastLogin: request.login, demo: demo, notice: .passwordChanged))
    }

    func validateField(request: Login.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: Self.problems(in: request.form)))
    }

    func submit(request: Login.Submit.Request) {
        guard !inFlight.isRunning else { return }
        if let lockedUntil, lockedUntil > clock.now() {
            presenter.presentThrottle(response: .init(remainingSeconds: Int(lockedUntil.timeIntervalSince(clock.now()).rounded(.up))))
            return
        }
        guard Login.Submit.Response.passes(Self.problems(in: request.form), else: presenter.presentSubmit(response:)),
              let phone = try? PhoneNumber.parse(countryCode: request.form.countryCode, number: request.form.phoneNumber)
        else { return }
        preferences.saveLastLogin(LastLogin(countryCode: "+" + phone.countryCode, phoneNumber: request.form.phoneNumber))
        presenter.presentSubmit(response: .started)
        let password = request.form.password
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.login(phone: phone, password: password)
        }, then: { [weak self] in self?.finishSubmit($0) })
    }

    private func finishSubmit(_ result: Result<Session, NetworkError>) {
        switch result {
        case .success(let session):
            try? sessions.save(session)
            presenter.presentSubmit(response: .succeeded(()))
            route(.loggedIn(session))
        case .failure(.throttled(let seconds)):
            presenter.presentSubmit(response: .failed(.throttled(retryAfterSeconds: seconds)))
            startCountdown(seconds: seconds)
        case .failure(let error):
            presenter.presentSubmit(response: .refused(error))
        }
    }

    private func startCountdown(seconds: Int) {
        countdownTask?.cancel()
        lockedUntil = clock.now().addingTimeInterval(TimeInterval(seconds))
        // A timer, not work: it is left out of the tracked tasks, so waiting for those never waits out a lock-out.
        countdownTask = Task { [weak self, clock] in
            var remaining = seconds
            while remaining > 0 {
                do { try await clock.sleep(.seconds(1)) } catch { return }
                remaining -= 1
                self?.presenter.presentThrottle(response: .init(remainingSeconds: remaining))
            }
            self?.lockedUntil = nil
            self?.countdownTask = nil
        }
    }

    func back(request: Login.Back.Request) {
        inFlight.cancel()
    }

    func navigate(request: Login.Navigate.Request) {
        inFlight.cancel()
        let prefill = LastLogin(countryCode: request.form.countryCode, phoneNumber: request.form.phoneNumber)
        switch request.destination {
        case .register: route(.register(prefill: prefill))
        case .forgotPassword: route(.forgotPassword(prefill: prefill))
        }
    }

    /// The app's own checks: a valid phone number for the country, and a password that is not empty.
    static func problems(in form: Login.Form) -> [Login.Field: InputProblem] {
        var problems: [Login.Field: InputProblem] = [:]
        PhoneInput.check(
            countryCode: form.countryCode, number: form.phoneNumber, countryCodeField: .countryCode, numberField: .phoneNumber,
            into: &problems
        )
        if form.password.isEmpty { problems[.password] = .password(.empty) }
        return problems
    }
}
