import Foundation
import SkiffCore

@MainActor
public protocol ActivateCardBusinessLogic: AnyObject {
    func load(request: ActivateCard.Load.Request)
    func submit(request: ActivateCard.Submit.Request)
    func back(request: ActivateCard.Back.Request)
}

/// Asks the server for an activation code, then activates the card with the last four digits and the code.
@MainActor
public final class ActivateCardInteractor: ActivateCardBusinessLogic {
    private let presenter: any ActivateCardPresentationLogic
    private let worker: any CardWorking
    private let outbox: (any DevelopmentOutboxReading)?
    private let card: Card
    private let phoneE164: String
    private let clock: SceneClock
    public var route: (ActivateCardRoute) -> Void = { _ in }

    private(set) var stage: ActivateCard.Stage = .last4
    private(set) var task: Task<Void, Never>?
    private var challenge: VerificationChallenge?

    public init(
        presenter: any ActivateCardPresentationLogic, worker: any CardWorking, outbox: (any DevelopmentOutboxReading)?,
        card: Card, phoneE164: String, clock: SceneClock = .live
    ) {
        self.presenter = presenter
        self.worker = worker
        self.outbox = outbox
        self.card = card
        self.phoneE164 = phoneE164
        self.clock = clock
    }

    isolated deinit { task?.cancel() }

    public func load(request: ActivateCard.Load.Request) {
        presenter.presentLoad(response: .init(card: card))
    }

    public func submit(request: ActivateCard.Submit.Request) {
        guard task == nil else { return }
        let last4 = request.form.last4
        guard last4.count == 4, last4.allSatisfy(\.isASCIIDigit) else {
            presenter.presentSubmit(response: .invalid([.last4: .last4]))
            return
        }
        switch stage {
        case .last4:
            requestCode()
        case .code:
            do throws(OneTimeCode.Problem) {
                try OneTimeCode.validate(request.form.code)
            } catch {
                presenter.presentSubmit(response: .invalid([.code: .code(error)]))
                return
            }
            guard let challenge else { return }
            activate(last4: last4, code: request.form.code, challenge: challenge)
        }
    }

    private func requestCode() {
        presenter.presentSubmit(response: .started)
        let cardID = card.id
        let requestedAt = clock.now().addingTimeInterval(-1)
        task = Task { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) in try await worker.requestActivation(cardID: cardID) }
            guard let self else { return }
            self.task = nil
            switch result {
            case .success(let challenge):
                self.challenge = challenge
                self.stage = .code
                let code = self.outbox?.latestCode(to: self.phoneE164, purpose: .cardActivation, since: requestedAt)
                self.presenter.presentSubmit(response: .codeSent(challenge, developmentCode: code))
            case .failure(let error):
                self.presenter.presentSubmit(response: .failed(error))
            }
        }
    }

    private func activate(last4: String, code: String, challenge: VerificationChallenge) {
        presenter.presentSubmit(response: .started)
        let cardID = card.id
        task = Task { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) in
                try await worker.activate(cardID: cardID, last4: last4, verificationId: challenge.verificationId, code: code)
            }
            guard let self else { return }
            self.task = nil
            switch result {
            case .success(let card):
                self.presenter.presentSubmit(response: .activated(card))
                self.route(.activated(card))
            case .failure(.validation(let detail, let fields)) where !fields.isEmpty:
                let problems = FieldErrorMapping.problems(fields, as: ActivateCard.Field.self)
                self.presenter.presentSubmit(response: problems.isEmpty ? .failed(.validation(detail: detail, fields: fields)) : .invalid(problems))
            case .failure(let error):
                self.presenter.presentSubmit(response: .failed(error))
            }
        }
    }

    public func back(request: ActivateCard.Back.Request) {
        if let task {
            task.cancel()
        } else {
            route(.cancelled)
        }
    }
}
