import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol VerifyPhoneBusinessLogic: FormBusinessLogic where Field == VerifyPhone.Field, Form == VerifyPhone.Form {
    func load(request: VerifyPhone.Load.Request)
    func validateField(request: VerifyPhone.ValidateField.Request)
    func submit(request: VerifyPhone.Submit.Request)
    func resend(request: VerifyPhone.Resend.Request)
    func back(request: VerifyPhone.Back.Request)
}

/// Where Verify phone sends the person next.
enum VerifyPhoneRoute: Sendable {
    case verified(Session)
    case back
}

/// Sends the code back, keeps the new session, and can ask for a new code. The same code sent again reuses its
/// Idempotency-Key, so a retry after a lost answer signs in instead of being refused as a used code.
@MainActor
final class VerifyPhoneInteractor: VerifyPhoneBusinessLogic {
    private let presenter: any VerifyPhonePresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    private let codes: DevelopmentCodes
    private let makeKey: () -> String
    private let registration: Registration
    private var challenge: VerificationChallenge
    private var sent: DevelopmentCodes.ExpectedCode
    /// The same code sent again for the same challenge carries the same key, also from a Verify phone built again
    /// for the same registration (`verifyKeys` from the coordinator).
    private let verifyKeys: RetryKeys<[String]>
    var route: (VerifyPhoneRoute) -> Void = { _ in }

    let inFlight: RequestInFlight

    init(
        presenter: any VerifyPhonePresentationLogic, auth: any AuthWorking, sessions: any SessionStoring,
        codes: DevelopmentCodes, registration: Registration, challenge: VerificationChallenge,
        tasks: TaskTracker, verifyKeys: RetryKeys<[String]>? = nil, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        self.codes = codes
        self.registration = registration
        self.challenge = challenge
        self.makeKey = makeKey
        self.verifyKeys = verifyKeys ?? RetryKeys(makeKey: makeKey)
        inFlight = RequestInFlight(tasks: tasks)
        // The code was sent just before this scene was built.
        sent = codes.expect(to: registration.phone.e164, for: .registration, margin: .seconds(60))
    }

    func load(request: VerifyPhone.Load.Request) {
        presenter.presentLoad(response: .init(
            phone: registration.phone, challenge: challenge,
            developmentCode: sent.read()
        ))
    }

    func validateField(request: VerifyPhone.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: Self.problems(in: request.form)))
    }

    func submit(request: VerifyPhone.Submit.Request) {
        guard !inFlight.isRunning,
              VerifyPhone.Submit.Response.passes(Self.problems(in: request.form), else: presenter.presentSubmit(response:))
        else { return }
        presenter.presentSubmit(response: .started)
        let verificationId = challenge.verificationId
        let code = request.form.code
        let key = verifyKeys.key(for: [verificationId, code])
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.verifyRegistration(verificationId: verificationId, code: code, idempotencyKey: key)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let session):
                try? sessions.save(session)
                presenter.presentSubmit(response: .succeeded(.verified))
                route(.verified(session))
            case .failure(let error):
                presenter.presentSubmit(response: .refused(error))
            }
        })
    }

    func resend(request: VerifyPhone.Resend.Request) {
        guard !inFlight.isRunning else { return }
        presenter.presentSubmit(response: .started)
        let registration = registration
        let key = makeKey()
        let expected = codes.expect(to: registration.phone.e164, for: .registration)
        inFlight.call({ [auth] () async throws(NetworkError) in
            try await auth.register(registration, idempotencyKey: key)
        }, then: { [weak self] in self?.finishResend($0, expected: expected) })
    }

    private func finishResend(_ result: Result<VerificationChallenge, NetworkError>, expected: DevelopmentCodes.ExpectedCode) {
        switch result {
        case .success(let challenge):
            self.challenge = challenge
            sent = expected
            presenter.presentSubmit(response: .succeeded(.resent))
            load(request: .init())
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    func back(request: VerifyPhone.Back.Request) {
        inFlight.cancel { route(.back) }
    }

    /// The app's own check: six digits.
    static func problems(in form: VerifyPhone.Form) -> [VerifyPhone.Field: InputProblem] {
        do throws(OneTimeCode.Problem) {
            try OneTimeCode.validate(form.code)
            return [:]
        } catch {
            return [.code: .code(error)]
        }
    }
}
