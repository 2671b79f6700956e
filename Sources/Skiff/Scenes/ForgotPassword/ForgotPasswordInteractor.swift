import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol ForgotPasswordBusinessLogic: FormBusinessLogic where Field == ForgotPassword.Field, Form == ForgotPassword.Form {
    func load(request: ForgotPassword.Load.Request)
    func validateField(request: ForgotPassword.ValidateField.Request)
    func submit(request: ForgotPassword.Submit.Request)
    func back(request: ForgotPassword.Back.Request)
}

/// Where Forgot password sends the person next.
enum ForgotPasswordRoute: Sendable {
    /// The password was changed: back to Login with the number filled in.
    case passwordReset(LastLogin)
    case back
}

/// Asks for a reset code for a number, then sends the code with the new password; the same reset sent again reuses
/// its Idempotency-Key, so a retry after a lost answer succeeds instead of being refused as a used code.
@MainActor
final class ForgotPasswordInteractor: ForgotPasswordBusinessLogic {
    private let presenter: any ForgotPasswordPresentationLogic
    private let auth: any AuthWorking
    private let codes: DevelopmentCodes
    private let prefill: LastLogin?
    var route: (ForgotPasswordRoute) -> Void = { _ in }

    private(set) var stage: ForgotPassword.Stage = .phone
    let inFlight: RequestInFlight
    private var pending: (phone: PhoneNumber, challenge: VerificationChallenge)?
    /// The same reset sent again (challenge, code and new password) carries the same key.
    private let resetKeys: RetryKeys<[String]>

    init(
        presenter: any ForgotPasswordPresentationLogic, auth: any AuthWorking,
        codes: DevelopmentCodes, prefill: LastLogin?, tasks: TaskTracker,
        makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.auth = auth
        self.codes = codes
        self.prefill = prefill
        resetKeys = RetryKeys(makeKey: makeKey)
        inFlight = RequestInFlight(tasks: tasks)
    }

    func load(request: ForgotPassword.Load.Request) {
        presenter.presentLoad(response: .init(prefill: prefill))
    }

    func validateField(request: ForgotPassword.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: problems(in: request.form)))
    }

    func submit(request: ForgotPassword.Submit.Request) {
        guard !inFlight.isRunning,
              ForgotPassword.Submit.Response.passes(problems(in: request.form), at: stage, else: presenter.presentSubmit(response:))
        else { return }
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
        present(.started)
        let expected = codes.expect(to: phone.e164, for: .passwordReset)
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.forgotPassword(phone: phone)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let challenge):
                stage = .reset
                pending = (phone, challenge)
                present(.succeeded(.codeSent(phone: phone, challenge: challenge, developmentCode: expected.read())))
            case .failure(let error):
                present(.failed(error))
            }
        })
    }

    private func reset(pending: (phone: PhoneNumber, challenge: VerificationChallenge), code: String, newPassword: String, form: ForgotPassword.Form) {
        present(.started)
        let verificationId = pending.challenge.verificationId
        let key = resetKeys.key(for: [verificationId, code, newPassword])
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.resetPassword(verificationId: verificationId, code: code, newPassword: newPassword, idempotencyKey: key)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                route(.passwordReset(LastLogin(countryCode: "+" + pending.phone.countryCode, phoneNumber: form.phoneNumber)))
            case .failure(let error):
                present(.refused(error))
            }
        })
    }

    /// What Enter came to, at the stage the form is at now.
    private func present(_ outcome: ForgotPassword.Submit.Outcome) {
        presenter.presentSubmit(response: .init(outcome, at: stage))
    }

    func back(request: ForgotPassword.Back.Request) {
        inFlight.cancel { route(.back) }
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
