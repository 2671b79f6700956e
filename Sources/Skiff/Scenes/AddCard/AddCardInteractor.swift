import Foundation
import SkiffCore

@MainActor
public protocol AddCardBusinessLogic: AnyObject {
    func load(request: AddCard.Load.Request)
    func numberChanged(request: AddCard.NumberChanged.Request)
    func validateField(request: AddCard.ValidateField.Request)
    func submit(request: AddCard.Submit.Request)
    func back(request: AddCard.Back.Request)
}

/// Validates the card as typed, confirms it, and adds it once: a retry of the same card reuses its
/// Idempotency-Key, so a timeout never leaves two cards behind.
@MainActor
public final class AddCardInteractor: AddCardBusinessLogic {
    private let presenter: any AddCardPresentationLogic
    private let worker: any CardWorking
    private let holderName: String
    private let clock: SceneClock
    private let makeKey: () -> String
    public var route: (AddCardRoute) -> Void = { _ in }

    private(set) var stage: AddCard.Stage = .form
    private(set) var task: Task<Void, Never>?
    /// The validated card on the confirmation step, with the key its requests carry.
    private(set) var pending: (card: NewCard, key: String)?

    public init(
        presenter: any AddCardPresentationLogic, worker: any CardWorking, holderName: String,
        clock: SceneClock = .live, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.worker = worker
        self.holderName = holderName
        self.clock = clock
        self.makeKey = makeKey
    }

    isolated deinit {
        task?.cancel()
        pending = nil
    }

    public func load(request: AddCard.Load.Request) {
        presenter.presentLoad(response: .init(holderName: holderName.uppercased()))
        presenter.presentNumberChanged(response: .init(brand: .unknown, digitCount: 0))
    }

    public func numberChanged(request: AddCard.NumberChanged.Request) {
        let digits = request.digits.filter(\.isASCIIDigit)
        presenter.presentNumberChanged(response: .init(brand: CardBrand.detect(digits), digitCount: digits.count))
    }

    public func validateField(request: AddCard.ValidateField.Request) {
        presenter.presentValidateField(response: .init(
            field: request.field, problem: Self.check(request.form, now: clock.now()).problems[request.field]
        ))
    }

    public func submit(request: AddCard.Submit.Request) {
        guard task == nil else { return }
        switch stage {
        case .form:
            let checked = Self.check(request.form, now: clock.now())
            guard let card = checked.card else {
                presenter.presentSubmit(response: .invalid(checked.problems))
                return
            }
            if pending?.card != card { pending = (card, makeKey()) }
            stage = .confirm
            presenter.presentSubmit(response: .confirm(
                brand: card.number.brand, last4: card.number.last4, expiry: card.expiry, holderName: card.holderName
            ))
        case .confirm:
            guard let pending else { return }
            add(pending.card, key: pending.key)
        }
    }

    private func add(_ card: NewCard, key: String) {
        presenter.presentSubmit(response: .started)
        task = Task { [weak self, worker] in
            let result = await Result.capture { () async throws(NetworkError) in try await worker.add(card, idempotencyKey: key) }
            self?.finishAdd(result)
        }
    }

    private func finishAdd(_ result: Result<Card, NetworkError>) {
        task = nil
        switch result {
        case .success(let card):
            pending = nil
            presenter.presentSubmit(response: .added(card))
            route(.added(card))
        case .failure(.validation(let detail, let fields)) where !fields.isEmpty:
            // The server refused a field: back to the form to fix it.
            let problems = FieldErrorMapping.problems(
                fields, as: AddCard.Field.self,
                aliases: ["expiryMonth": .expiry, "expiryYear": .expiry, "cvc": .securityCode]
            )
            if problems.isEmpty {
                presenter.presentSubmit(response: .failed(.validation(detail: detail, fields: fields)))
            } else {
                stage = .form
                presenter.presentSubmit(response: .invalid(problems))
            }
        case .failure(let error):
            presenter.presentSubmit(response: .failed(error))
        }
    }

    public func back(request: AddCard.Back.Request) {
        if let task {
            task.cancel()
            return
        }
        switch stage {
        case .confirm:
            stage = .form
            presenter.presentBack(response: .init(stage: .form))
        case .form:
            pending = nil
            presenter.presentBack(response: .init(stage: .form, leaving: true))
            route(.cancelled)
        }
    }

    /// Every check of the form at once: the card when all pass, otherwise each field's problem.
    static func check(_ form: AddCard.Form, now: Date) -> (card: NewCard?, problems: [AddCard.Field: InputProblem]) {
        var problems: [AddCard.Field: InputProblem] = [:]
        var number: CardNumber?
        var expiry: CardExpiry?
        do throws(CardNumber.Problem) { number = try CardNumber(form.number) } catch { problems[.number] = .cardNumber(error) }
        let holder = form.holderName.trimmingCharacters(in: .whitespaces)
        if holder.isEmpty { problems[.holderName] = .holderName }
        do throws(CardExpiry.Problem) { expiry = try CardExpiry.parse(form.expiry, now: now) } catch { problems[.expiry] = .expiry(error) }
        let brand = number?.brand ?? CardBrand.detect(form.number.filter(\.isASCIIDigit))
        do throws(CardSecurityCode.Problem) {
            try CardSecurityCode.validate(form.securityCode, brand: brand)
        } catch {
            problems[.securityCode] = .securityCode(error)
        }
        guard problems.isEmpty, let number, let expiry else { return (nil, problems) }
        return (NewCard(number: number, expiry: expiry, securityCode: form.securityCode, holderName: holder), [:])
    }
}
