import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol RegisterBusinessLogic: FormBusinessLogic where Field == Register.Field, Form == Register.Form {
    func load(request: Register.Load.Request)
    func validateField(request: Register.ValidateField.Request)
    func submit(request: Register.Submit.Request)
    func back(request: Register.Back.Request)
}

/// Where Register sends the person next.
enum RegisterRoute: Sendable {
    case verify(Registration, VerificationChallenge)
    case back
}

/// Checks the registration form and asks the server to send a code; the same form sent again reuses its
/// Idempotency-Key, so a retry never registers twice.
@MainActor
final class RegisterInteractor: RegisterBusinessLogic {
    private let presenter: any RegisterPresentationLogic
    private let auth: any AuthWorking
    private let prefill: LastLogin?
    var route: (RegisterRoute) -> Void = { _ in }

    let inFlight: RequestInFlight
    private let keys: RetryKeys<Registration>

    init(
        presenter: any RegisterPresentationLogic, auth: any AuthWorking, prefill: LastLogin?, tasks: TaskTracker,
        makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.auth = auth
        self.prefill = prefill
        keys = RetryKeys(makeKey: makeKey)
        inFlight = RequestInFlight(tasks: tasks)
    }

    func load(request: Register.Load.Request) {
        presenter.presentLoad(response: .init(prefill: prefill))
    }

    func validateField(request: Register.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: Self.problems(in: request.form)))
    }

    func submit(request: Register.Submit.Request) {
        guard !inFlight.isRunning else { return }
        let form = request.form
        guard Register.Submit.Response.passes(Self.problems(in: form), else: presenter.presentSubmit(response:)),
              let phone = try? PhoneNumber.parse(countryCode: form.countryCode, number: form.phoneNumber),
              let name = try? FullName.validate(form.fullName)
        else { return }
        let registration = Registration(phone: phone, fullName: name, password: form.password)
        let key = keys.key(for: registration)
        presenter.presentSubmit(response: .started)
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.register(registration, idempotencyKey: key)
        }, then: { [weak self] in self?.finishSubmit($0, registration: registration) })
    }

    private func finishSubmit(_ result: Result<VerificationChallenge, NetworkError>, registration: Registration) {
        switch result {
        case .success(let challenge):
            presenter.presentSubmit(response: .succeeded(()))
            route(.verify(registration, challenge))
        case .failure(let error):
            presenter.presentSubmit(response: .refused(error))
        }
    }

    func back(request: Register.Back.Request) {
        inFlight.cancel { route(.back) }
    }

    static func problems(in form: Register.Form) -> [Register.Field: InputProblem] {
        var problems: [Register.Field: InputProblem] = [:]
        PhoneInput.check(
            countryCode: form.countryCode, number: form.phoneNumber, countryCodeField: .countryCode, numberField: .phoneNumber,
            into: &problems
        )
        do throws(FullName.Problem) { _ = try FullName.validate(form.fullName) } catch { problems[.fullName] = .fullName(error) }
        do throws(PasswordPolicy.Problem) { try PasswordPolicy.check(form.password) } catch { problems[.password] = .password(error) }
        if form.confirmPassword != form.password { problems[.confirmPassword] = .passwordsDiffer }
        return problems
    }
}
