import Foundation
import SkiffCore

@MainActor
public protocol ForgotPasswordBusinessLogic: AnyObject {
    func load(request: ForgotPassword.Load.Request)
    func validateField(request: ForgotPassword.ValidateField.Request)
    func submit(request: ForgotPassword.Submit.Request)
    func back(request: ForgotPassword.Back.Request)
}

/// Asks for a reset code for a number, then sends the code with the new password.
@MainActor
public final class ForgotPasswordInteractor: ForgotPasswordBusinessLogic {
    private let presenter: any ForgotPasswordPresentationLogic
    private let auth: any AuthWorking
    private let outbox: (any DevelopmentOutboxReading)?
    private let prefill: LastLogin?
    private let clock: SceneClock
    public var route: (ForgotPasswordRoute) -> Void = { _ in }

    private(set) var stage: ForgotPassword.Stage = .phone
    private(set) var task: Task<Void, Never>?
    private var pending: (phone: PhoneNumber, challenge: VerificationChallenge)?

    public init(
        presenter: any ForgotPasswordPresentationLogic, auth: any AuthWorking,
        outbox: (any DevelopmentOutboxReading)?, prefill: LastLogin?, clock: SceneClock = .live
    ) {
        self.presenter = presenter
        self.auth = auth
        self.outbox = outbox
        self.prefill = prefill
        self.clock = clock
    }

    isolated deinit { task?.cancel() }

    public func load(request: ForgotPassword.Load.Request) {
        presenter.presentLoad(response: .init(prefill: prefill))
    }

    public func validateField(request: ForgotPassword.ValidateField.Request) {
        presenter.presentValidateField(response: .init(
            field: request.field, problem: problems(in: request.form)[request.field]
        ))
    }

    public func submit(request: ForgotPassword.Submit.Request) {
        guard task == nil else { return }
        let problems = problems(in: request.form)
        guard problems.isEmpty else {
            presenter.presentSubmit(response: .invalid(problems))
            return
        }
        switch stage {
        case .phone:
            guard let phone = try? PhoneNumber.parse(countryCode: request.form.countryCode, number: request.form.phoneNumber) else { return }
            requestCode(phone: phone, nationalInput: request.form.phoneNumber)
        case .reset:
            guard let pending else { return }
            reset(pending: pending, code: request.form.code, newPassword: request.form.newPassword, form: request.form)
        }
    }

    private func requestCode(phone: PhoneNumber, nationalInput: String) {
        presenter.presentSubmit(response: .started)
        let requestedAt = clock.now().addingTimeInterval(-1)
        task = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.forgotPassword(phone: phone)
            }
            guard let self else { return }
            self.task = nil
            switch result {
            case .success(let challenge):
                self.stage = .reset
                self.pending = (phone, challenge)
                let code = self.outbox?.latestCode(to: phone.e164, purpose: .passwordReset, since: requestedAt)
                self.presenter.presentSubmit(response: .codeSent(phone: phone, challenge: challenge, developmentCode: code))
            case .failure(let error):
                self.presenter.presentSubmit(response: .failed(error))
            }
        }
    }

    private func reset(pending: (phone: PhoneNumber, challenge: VerificationChallenge), code: String, newPassword: String, form: ForgotPassword.Form) {
        presenter.presentSubmit(response: .started)
        let verificationId = pending.challenge.verificationId
        task = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.resetPassword(verificationId: verificationId, code: code, newPassword: newPassword)
            }
            guard let self else { return }
            self.task = nil
            switch result {
            case .success:
                self.route(.passwordReset(LastLogin(countryCode: "+" + pending.phone.countryCode, phoneNumber: form.phoneNumber)))
            case .failure(.validation(let detail, let fields)) where !fields.isEmpty:
                let problems = FieldErrorMapping.problems(fields, as: ForgotPassword.Field.self)
                self.presenter.presentSubmit(response: problems.isEmpty ? .failed(.validation(detail: detail, fields: fields)) : .invalid(problems))
            case .failure(let error):
                self.presenter.presentSubmit(response: .failed(error))
            }
        }
    }

    public func back(request: ForgotPassword.Back.Request) {
        if let task {
            task.cancel()
        } else {
            route(.cancelled)
        }
    }

    /// The checks for the fields of the current stage only.
    func problems(in form: ForgotPassword.Form) -> [ForgotPassword.Field: InputProblem] {
        var problems: [ForgotPassword.Field: InputProblem] = [:]
        switch stage {
        case .phone:
            PhoneInput.check(
                countryCode: form.countryCode, number: form.phoneNumber, countryCodeField: .countryCode, numberField: .phoneNumber,
                into: &problems
            )
        case .reset:
            do throws(OneTimeCode.Problem) { try OneTimeCode.validate(form.code) } catch { problems[.code] = .code(error) }
            do throws(PasswordPolicy.Problem) { try PasswordPolicy.check(form.newPassword) } catch { problems[.newPassword] = .password(error) }
            if form.confirmPassword != form.newPassword { problems[.confirmPassword] = .passwordsDiffer }
        }
        return problems
    }
}
