import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol ActivateCardBusinessLogic: FormBusinessLogic where Field == ActivateCard.Field, Form == ActivateCard.Form {
    func load(request: ActivateCard.Load.Request)
    func validateField(request: ActivateCard.ValidateField.Request)
    func submit(request: ActivateCard.Submit.Request)
    func back(request: ActivateCard.Back.Request)
}

/// Where Activate card sends the person next.
enum ActivateCardRoute: Sendable {
    case activated(Card)
    case back
}

/// Asks the server for an activation code with the last four digits (checked there before a code is sent), then
/// activates the card with the last four digits and the code.
@MainActor
final class ActivateCardInteractor: ActivateCardBusinessLogic {
    private let presenter: any ActivateCardPresentationLogic
    private let worker: any CardWorking
    private let codes: DevelopmentCodes
    private let card: Card
    private let phoneE164: String
    var route: (ActivateCardRoute) -> Void = { _ in }

    private(set) var stage: ActivateCard.Stage = .last4
    let inFlight: RequestInFlight
    private var challenge: VerificationChallenge?

    init(
        presenter: any ActivateCardPresentationLogic, worker: any CardWorking, codes: DevelopmentCodes,
        card: Card, phoneE164: String, tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.worker = worker
        self.codes = codes
        self.card = card
        self.phoneE164 = phoneE164
        inFlight = RequestInFlight(tasks: tasks)
    }

    func load(request: ActivateCard.Load.Request) {
        presenter.presentLoad(response: .init(card: card))
    }

    func validateField(request: ActivateCard.ValidateField.Request) {
        presenter.presentValidateField(response: .init(request, problems: problems(in: request.form)))
    }

    func submit(request: ActivateCard.Submit.Request) {
        guard !inFlight.isRunning,
              ActivateCard.Submit.Response.passes(problems(in: request.form), at: stage, else: presenter.presentSubmit(response:))
        else { return }
        switch stage {
        case .last4:
            requestCode(last4: request.form.last4)
        case .code:
            guard let challenge else { return }
            activate(last4: request.form.last4, code: request.form.code, challenge: challenge)
        }
    }

    /// The checks for the fields shown: the last four digits, and from the code stage on the code.
    func problems(in form: ActivateCard.Form) -> [ActivateCard.Field: InputProblem] {
        var problems: [ActivateCard.Field: InputProblem] = [:]
        do throws(CardLastFour.Problem) { _ = try CardLastFour.validate(form.last4) } catch { problems[.last4] = .last4(error) }
        if stage == .code {
            do throws(OneTimeCode.Problem) { try OneTimeCode.validate(form.code) } catch { problems[.code] = .code(error) }
        }
        return problems
    }

    /// Asks for a code with the last four digits, which the server checks before it sends one: other digits come
    /// back as a refusal on that field, and no code is sent.
    private func requestCode(last4: String) {
        present(.started)
        let cardID = card.id
        let expected = codes.expect(to: phoneE164, for: .cardActivation)
        inFlight.call({ [worker] () async throws(NetworkError) in
            try await worker.requestActivation(cardID: cardID, last4: last4)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let challenge):
                self.challenge = challenge
                stage = .code
                present(.succeeded(.codeSent(challenge, developmentCode: expected.read())))
            case .failure(.conflict):
                alreadyActive()
            case .failure(let error):
                present(.refused(error))
            }
        })
    }

    private func activate(last4: String, code: String, challenge: VerificationChallenge) {
        present(.started)
        let cardID = card.id
        inFlight.call({ [worker] () async throws(NetworkError) in
            try await worker.activate(cardID: cardID, last4: last4, verificationId: challenge.verificationId, code: code)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let card):
                present(.succeeded(.activated(card)))
                route(.activated(card))
            case .failure(.conflict):
                alreadyActive()
            case .failure(let error):
                present(.refused(error))
            }
        })
    }

    /// The server says the card is active already: an earlier answer was lost after the server activated it
    /// (or another device did), so the activation is done.
    private func alreadyActive() {
        var active = card
        active.status = .active
        present(.succeeded(.activated(active)))
        route(.activated(active))
    }

    /// What Enter came to, at the stage the form is at now.
    private func present(_ outcome: ActivateCard.Submit.Outcome) {
        presenter.presentSubmit(response: .init(outcome, at: stage))
    }

    func back(request: ActivateCard.Back.Request) {
        inFlight.cancel { route(.back) }
    }
}
