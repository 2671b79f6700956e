import Foundation
import SkiffCore

@MainActor
public protocol LoginBusinessLogic: AnyObject {
    func load(request: Login.Load.Request)
    func validateField(request: Login.ValidateField.Request)
    func submit(request: Login.Submit.Request)
    func cancel(request: Login.Cancel.Request)
    func navigate(request: Login.Navigate.Request)
    func passwordChanged(request: Login.PasswordChanged.Request)
}

/// Checks the form, signs in through the auth worker, keeps the session and the last number, and counts down a
/// lock-out.
@MainActor
public final class LoginInteractor: LoginBusinessLogic {
    private let presenter: any LoginPresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    private let preferences: any PreferencesStoring
    private let demo: DemoCredentials?
    private let notice: Login.Notice?
    private let clock: SceneClock
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    public var route: (LoginRoute) -> Void = { _ in }

    private(set) var submitTask: Task<Void, Never>?
    private(set) var countdownTask: Task<Void, Never>?
    private var lockedUntil: Date?

    public init(
        presenter: any LoginPresentationLogic, auth: any AuthWorking, sessions: any SessionStoring,
        preferences: any PreferencesStoring, demo: DemoCredentials?, notice: Login.Notice? = nil, clock: SceneClock = .live
    ) {
        self.notice = notice
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        self.preferences = preferences
        self.demo = demo
        self.clock = clock
    }

    isolated deinit {
        submitTask?.cancel()
        countdownTask?.cancel()
    }

    public func load(request: Login.Load.Request) {
        presenter.presentLoad(response: .init(lastLogin: preferences.lastLogin(), demo: demo, notice: notice))
    }

    public func passwordChanged(request: Login.PasswordChanged.Request) {
        preferences.saveLastLogin(request.login)
        presenter.presentLoad(response: .init(lastLogin: request.login, demo: demo, notice: .passwordChanged))
    }

    public func validateField(request: Login.ValidateField.Request) {
        presenter.presentValidateField(
            response: .init(field: request.field, problem: Self.problems(in: request.form)[request.field])
        )
    }

    public func submit(request: Login.Submit.Request) {
        guard submitTask == nil else { return }
        if let lockedUntil, lockedUntil > clock.now() {
            presenter.presentThrottle(response: .init(remainingSeconds: Int(lockedUntil.timeIntervalSince(clock.now()).rounded(.up))))
            return
        }
        let problems = Self.problems(in: request.form)
        guard problems.isEmpty,
              let phone = try? PhoneNumber.parse(countryCode: request.form.countryCode, number: request.form.phoneNumber)
        else {
            presenter.presentSubmit(response: .invalid(problems))
            return
        }
        preferences.saveLastLogin(LastLogin(countryCode: "+" + phone.countryCode, phoneNumber: request.form.phoneNumber))
        presenter.presentSubmit(response: .started)
        let password = request.form.password
        submitTask = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.login(phone: phone, password: password)
            }
            self?.finishSubmit(result)
        }
    }

    private func finishSubmit(_ result: Result<Session, NetworkError>) {
        submitTask = nil
        switch result {
        case .success(let session):
            try? sessions.save(session)
            presenter.presentSubmit(response: .succeeded)
            route(.loggedIn(session))
        case .failure(.throttled(let seconds)):
            presenter.presentSubmit(response: .failed(.throttled(retryAfterSeconds: seconds)))
            startCountdown(seconds: seconds)
        case .failure(.validation(let detail, let fields)) where !fields.isEmpty:
            let problems = FieldErrorMapping.problems(fields, as: Login.Field.self)
            presenter.presentSubmit(response: problems.isEmpty ? .failed(.validation(detail: detail, fields: fields)) : .invalid(problems))
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    private func startCountdown(seconds: Int) {
        countdownTask?.cancel()
        lockedUntil = clock.now().addingTimeInterval(TimeInterval(seconds))
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

    public func cancel(request: Login.Cancel.Request) {
        submitTask?.cancel()
    }

    public func navigate(request: Login.Navigate.Request) {
        submitTask?.cancel()
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
