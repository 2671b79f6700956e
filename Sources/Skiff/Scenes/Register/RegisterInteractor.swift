import Foundation
import SkiffCore

@MainActor
public protocol RegisterBusinessLogic: AnyObject {
    func load(request: Register.Load.Request)
    func validateField(request: Register.ValidateField.Request)
    func submit(request: Register.Submit.Request)
    func cancel(request: Register.Cancel.Request)
}

/// Checks the registration form and asks the server to send a code; the same form sent again reuses its
/// Idempotency-Key, so a retry never registers twice.
@MainActor
public final class RegisterInteractor: RegisterBusinessLogic {
    private let presenter: any RegisterPresentationLogic
    private let auth: any AuthWorking
    private let prefill: LastLogin?
    private let makeKey: () -> String
    public var route: (RegisterRoute) -> Void = { _ in }

    private(set) var submitTask: Task<Void, Never>?
    private var lastKey: (registration: Registration, key: String)?

    public init(
        presenter: any RegisterPresentationLogic, auth: any AuthWorking, prefill: LastLogin?,
        makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.auth = auth
        self.prefill = prefill
        self.makeKey = makeKey
    }

    isolated deinit { submitTask?.cancel() }

    public func load(request: Register.Load.Request) {
        presenter.presentLoad(response: .init(prefill: prefill))
    }

    public func validateField(request: Register.ValidateField.Request) {
        presenter.presentValidateField(
            response: .init(field: request.field, problem: Self.problems(in: request.form)[request.field])
        )
    }

    public func submit(request: Register.Submit.Request) {
        guard submitTask == nil else { return }
        let form = request.form
        let problems = Self.problems(in: form)
        guard problems.isEmpty,
              let phone = try? PhoneNumber.parse(countryCode: form.countryCode, number: form.phoneNumber),
              let name = try? FullName.validate(form.fullName)
        else {
            presenter.presentSubmit(response: .invalid(problems))
            return
        }
        let registration = Registration(phone: phone, fullName: name, password: form.password)
        let key = lastKey?.registration == registration ? lastKey!.key : makeKey()
        lastKey = (registration, key)
        presenter.presentSubmit(response: .started)
        submitTask = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.register(registration, idempotencyKey: key)
            }
            self?.finishSubmit(result, registration: registration)
        }
    }

    private func finishSubmit(_ result: Result<VerificationChallenge, NetworkError>, registration: Registration) {
        submitTask = nil
        switch result {
        case .success(let challenge):
            presenter.presentSubmit(response: .succeeded)
            route(.verify(registration, challenge))
        case .failure(.validation(let detail, let fields)) where !fields.isEmpty:
            let problems = FieldErrorMapping.problems(fields, as: Register.Field.self)
            presenter.presentSubmit(response: problems.isEmpty ? .failed(.validation(detail: detail, fields: fields)) : .invalid(problems))
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    public func cancel(request: Register.Cancel.Request) {
        if let submitTask {
            submitTask.cancel()
        } else {
            route(.cancelled)
        }
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

/// Puts the server's per-field errors on the scene's own fields, by the field's name in the API.
enum FieldErrorMapping {
    static func problems<Field: RawRepresentable & Hashable>(
        _ fields: [FieldError], as type: Field.Type, aliases: [String: Field] = [:]
    ) -> [Field: InputProblem] where Field.RawValue == String {
        var problems: [Field: InputProblem] = [:]
        for field in fields {
            if let key = aliases[field.field] ?? Field(rawValue: field.field) { problems[key] = .server(field.message) }
        }
        return problems
    }
}
