import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol AddCardBusinessLogic: FormBusinessLogic where Field == AddCard.Field, Form == AddCard.Form {
    func load(request: AddCard.Load.Request)
    func numberChanged(request: AddCard.NumberChanged.Request)
    func validateField(request: AddCard.ValidateField.Request)
    func submit(request: AddCard.Submit.Request)
    func back(request: AddCard.Back.Request)
}

/// Where Add card sends the person next.
enum AddCardRoute: Sendable {
    case added(Card)
    case back
}

/// Validates the card as typed, confirms it, and adds it once: a retry of the same card reuses its
/// Idempotency-Key, so a timeout never leaves two cards behind.
@MainActor
final class AddCardInteractor: AddCardBusinessLogic {
    private let presenter: any AddCardPresentationLogic
    private let worker: any CardWorking
    private let holderName: String
    private let clock: SceneClock
    private let makeKey: () -> String
    var route: (AddCardRoute) -> Void = { _ in }

    private(set) var stage: AddCard.Stage = .form
    let inFlight: RequestInFlight
    /// The validated card on the confirmation step, with the key its requests carry.
    private(set) var pending: (card: NewCard, key: String)?

    init(
        presenter: any AddCardPresentationLogic, worker: any CardWorking, holderName: String,
        clock: SceneClock = .live, tasks: TaskTracker, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.worker = worker
        self.holderName = holderName
        self.clock = clock
        self.makeKey = makeKey
        inFlight = RequestInFlight(tasks: tasks)
    }

    isolated deinit { pending = nil }

    func load(request: AddCard.Load.Request) {
        presenter.presentLoad(response: .init(holderName: holderName.uppercased()))
        presenter.presentNumberChanged(response: .init(brand: .unknown, digitCount: 0))
    }

    func numberChanged(request: AddCard.NumberChanged.Request) {
        let digits = request.digits.filter(\.isASCIIDigit)
        presenter.presentNumberChanged(response: .init(brand: CardBrand.detect(digits), digitCount: digits.count))
    }

    func validateField(request: AddCard.ValidateField.Request) {
        presenter.presentValidateField(response: .init(
            field: request.field, problem: Self.check(request.form, now: clock.now()).problems[request.field]
        ))
    }

    func submit(request: AddCard.Submit.Request) {
        guard !inFlight.isRunning else { return }
        switch stage {
        case .form:
            let checked = Self.check(request.form, now: clock.now())
            guard let card = checked.card else {
                present(.invalid(checked.problems))
                return
            }
            if pending?.card != card { pending = (card, makeKey()) }
            stage = .confirm
            present(.succeeded(.confirm(
                brand: card.number.brand, last4: card.number.last4, expiry: card.expiry, holderName: card.holderName
            )))
        case .confirm:
            guard let pending else { return }
            add(pending.card, key: pending.key)
        }
    }

    private func add(_ card: NewCard, key: String) {
        present(.started)
        inFlight.call({ [worker] () async throws(NetworkError) in
            try await worker.add(card, idempotencyKey: key)
        }, then: { [weak self] in self?.finishAdd($0) })
    }

    private func finishAdd(_ result: Result<Card, NetworkError>) {
        switch result {
        case .success(let card):
            pending = nil
            present(.succeeded(.added(card)))
            route(.added(card))
        case .failure(let error):
            let outcome = AddCard.Submit.Outcome.refused(error)
            // The server refused a field: back to the form to fix it.
            if case .invalid = outcome { stage = .form }
            present(outcome)
        }
    }

    /// What Enter came to, at the stage the form is at now.
    private func present(_ outcome: AddCard.Submit.Outcome) {
        presenter.presentSubmit(response: .init(outcome, at: stage))
    }

    func back(request: AddCard.Back.Request) {
        inFlight.cancel { [self] in
            switch stage {
            case .confirm:
                stage = .form
                presenter.presentBack(response: .init(stage: .form))
            case .form:
                pending = nil
                presenter.presentBack(response: .init(stage: .form, leaving: true))
                route(.back)
            }
        }
    }

    /// Every check of the form at once: the card when all pass, otherwise each field's problem.
    static func check(_ form: AddCard.Form, now: Date) -> (card: NewCard?, problems: [AddCard.Field: InputProblem]) {
        var problems: [AddCard.Field: InputProblem] = [:]
        var number: CardNumber?
        var expiry: CardExpiry?
        do throws(CardNumber.Problem) { number = try CardNumber(form.number) } catch { problems[.number] = .cardNumber(error) }
        var holder = ""
        do throws(CardHolderName.Problem) { holder = try CardHolderName.validate(form.holderName) } catch { problems[.holderName] = .holderName(error) }
        do throws(CardExpiry.Problem) { expiry = try CardExpiry.parse(form.expiry, now: now) } catch { problems[.expiry] = .expiry(error) }
        let brand = number?.brand ?? CardNumber.brand(typed: form.number)
        do throws(CardSecurityCode.Problem) {
            try CardSecurityCode.validate(form.securityCode, brand: brand)
        } catch {
            problems[.securityCode] = .securityCode(error)
        }
        guard problems.isEmpty, let number, let expiry else { return (nil, problems) }
        return (NewCard(number: number, expiry: expiry, securityCode: form.securityCode, holderName: holder), [:])
    }
}
