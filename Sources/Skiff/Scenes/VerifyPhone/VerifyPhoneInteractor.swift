import Foundation
import SkiffCore

@MainActor
public protocol VerifyPhoneBusinessLogic: AnyObject {
    func load(request: VerifyPhone.Load.Request)
    func submit(request: VerifyPhone.Submit.Request)
    func resend(request: VerifyPhone.Resend.Request)
    func cancel(request: VerifyPhone.Cancel.Request)
}

/// Sends the code back, keeps the new session, and can ask for a new code.
@MainActor
public final class VerifyPhoneInteractor: VerifyPhoneBusinessLogic {
    private let presenter: any VerifyPhonePresentationLogic
    private let auth: any AuthWorking
    private let sessions: any SessionStoring
    private let outbox: (any DevelopmentOutboxReading)?
    private let clock: SceneClock
    private let makeKey: () -> String
    private let registration: Registration
    private var challenge: VerificationChallenge
    private var sentAt: Date
    public var route: (VerifyPhoneRoute) -> Void = { _ in }

    private(set) var task: Task<Void, Never>?

    public init(
        presenter: any VerifyPhonePresentationLogic, auth: any AuthWorking, sessions: any SessionStoring,
        outbox: (any DevelopmentOutboxReading)?, registration: Registration, challenge: VerificationChallenge,
        clock: SceneClock = .live, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.auth = auth
        self.sessions = sessions
        self.outbox = outbox
        self.registration = registration
        self.challenge = challenge
        self.clock = clock
        self.makeKey = makeKey
        // The code was sent just before this scene was built; allow for the clock's granularity.
        self.sentAt = clock.now().addingTimeInterval(-60)
    }

    isolated deinit { task?.cancel() }

    public func load(request: VerifyPhone.Load.Request) {
        presenter.presentLoad(response: .init(
            phone: registration.phone, challenge: challenge,
            developmentCode: outbox?.latestCode(to: registration.phone.e164, purpose: .registration, since: sentAt)
        ))
    }

    public func submit(request: VerifyPhone.Submit.Request) {
        guard task == nil else { return }
        do throws(OneTimeCode.Problem) {
            try OneTimeCode.validate(request.code)
        } catch {
            presenter.presentSubmit(response: .invalid(.code(error)))
            return
        }
        presenter.presentSubmit(response: .started)
        let verificationId = challenge.verificationId
        task = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.verifyRegistration(verificationId: verificationId, code: request.code)
            }
            self?.finishSubmit(result)
        }
    }

    private func finishSubmit(_ result: Result<Session, NetworkError>) {
        task = nil
        switch result {
        case .success(let session):
            try? sessions.save(session)
            presenter.presentSubmit(response: .succeeded)
            route(.verified(session))
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    public func resend(request: VerifyPhone.Resend.Request) {
        guard task == nil else { return }
        presenter.presentSubmit(response: .started)
        let registration = registration
        let key = makeKey()
        let requestedAt = clock.now()
        task = Task { [weak self, auth] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await auth.register(registration, idempotencyKey: key)
            }
            self?.finishResend(result, requestedAt: requestedAt)
        }
    }

    private func finishResend(_ result: Result<VerificationChallenge, NetworkError>, requestedAt: Date) {
        task = nil
        switch result {
        case .success(let challenge):
            self.challenge = challenge
            self.sentAt = requestedAt.addingTimeInterval(-1)
            presenter.presentSubmit(response: .resent)
            load(request: .init())
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    public func cancel(request: VerifyPhone.Cancel.Request) {
        if let task {
            task.cancel()
        } else {
            route(.cancelled)
        }
    }
}
