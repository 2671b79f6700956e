import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol TopUpBusinessLogic: FormBusinessLogic where Field == TopUp.Field, Form == TopUp.Form {
    func load(request: TopUp.Load.Request)
    func chooseCard(request: TopUp.ChooseCard.Request)
    func validateField(request: TopUp.ValidateField.Request)
    func submit(request: TopUp.Submit.Request)
    func back(request: TopUp.Back.Request)
}

/// Where Top up sends the person next.
enum TopUpRoute: Sendable {
    /// The money is in the wallet, and the person has seen the receipt.
    case added(AddedMoney)
    case back
}

/// Lists the added cards (those money cannot come from, with why), checks the amount, asks for a confirmation,
/// then adds the money once: the Idempotency-Key is made when the person confirms and sent again with every retry
/// of that confirmation (decision 0152's way), so a retry after a lost answer finds the top-up the first try made.
/// When the card's issuer asks for a code, the code completes the top-up.
@MainActor
final class TopUpInteractor: TopUpBusinessLogic {
    private let presenter: any TopUpPresentationLogic
    private let transfers: any TransferWorking
    private let codes: DevelopmentCodes
    /// Where the issuer's code is sent: the signed-in user's number, for the development outbox.
    private let phoneE164: String
    /// The balance Home showed: its currency is the top-up's.
    private let balance: Money
    /// The added cards, each with why money cannot come from it (nil when it can), as of when the screen opened.
    let choices: [TopUp.Choice]
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    var route: (TopUpRoute) -> Void = { _ in }

    private(set) var stage: TopUp.Stage = .card
    let inFlight: RequestInFlight
    private(set) var card: Card?
    /// What the person is asked to confirm, once the amount passed.
    private(set) var confirmation: TopUp.Confirmation?
    /// The top-up waiting for the issuer's code, and the development code read for it.
    private var pending: (topUp: PendingTopUp, developmentCode: String?)?
    private var added: AddedMoney?
    /// One key per confirmed top-up: the same confirmation sent again carries the same key.
    private let keys: RetryKeys<TopUp.Confirmation>

    init(
        presenter: any TopUpPresentationLogic, transfers: any TransferWorking, codes: DevelopmentCodes, phoneE164: String,
        cards: [Card], balance: Money, tasks: TaskTracker, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.transfers = transfers
        self.codes = codes
        self.phoneE164 = phoneE164
        self.balance = balance
        let now = codes.clock.now()
        // Only added cards are listed: the Skiff card spends from this very wallet.
        choices = cards.filter { $0.kind == .external }.map { card in
            TopUp.Choice(card: card, refusal: TopUpSource.refusal(
                issuedBySkiff: false, frozen: card.frozen, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, now: now
            ))
        }
        keys = RetryKeys(makeKey: makeKey)
        inFlight = RequestInFlight(tasks: tasks)
    }

    func load(request: TopUp.Load.Request) {
        presenter.presentLoad(response: .init(choices: choices, balance: balance))
    }

    func chooseCard(request: TopUp.ChooseCard.Request) {
        guard stage == .card, !inFlight.isRunning, choices.indices.contains(request.index) else { return }
        let choice = choices[request.index]
        if choice.refusal == nil {
            card = choice.card
            stage = .amount
        }
        presenter.presentChooseCard(response: .init(choice: choice))
    }

    func validateField(request: TopUp.ValidateField.Request) {
        let problems = problems(in: request.form)
        presenter.presentValidateField(response: .init(request, problems: problems))
        if request.field == .amount, problems[.amount] == nil,
           let amount = try? AmountInput.check(request.form.amount, currency: balance.currency) {
            presenter.presentFormatAmount(response: .init(amount: amount))
        }
    }

    func submit(request: TopUp.Submit.Request) {
        guard !inFlight.isRunning, stage != .card,
              TopUp.Submit.Response.passes(problems(in: request.form), at: stage, else: presenter.presentSubmit(response:))
        else { return }
        switch stage {
        case .card: break
        case .amount: askToConfirm(request.form)
        case .confirm: confirm()
        case .code: if let pending { enterCode(request.form.code, for: pending.topUp) }
        case .receipt: if let added { route(.added(added)) }
        }
    }

    private func askToConfirm(_ form: TopUp.Form) {
        guard let card, let amount = try? AmountInput.check(form.amount, currency: balance.currency) else { return }
        let confirmation = TopUp.Confirmation(
            card: card, amount: amount, expectsCode: TransferRules.topUpNeedsCode(amountMinor: amount.amountMinor)
        )
        self.confirmation = confirmation
        stage = .confirm
        present(.succeeded(.confirm(confirmation)))
    }

    /// Enter on the confirmation: the top-up asked for under the confirmation's key.
    private func confirm() {
        guard let confirmation else { return }
        let key = keys.key(for: confirmation)
        let order = TopUpOrder(card: confirmation.card, amount: confirmation.amount)
        let expected = codes.expect(to: phoneE164, for: .topUp)
        present(.started)
        inFlight.call({ [transfers] () async throws(NetworkError) in
            try await transfers.topUp(order, idempotencyKey: key)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.added(let money)):
                finish(money)
            case .success(.needsCode(let topUp)):
                // A retry answered with the top-up asked before: its code was sent then, so keep the one read then.
                let code = expected.read() ?? (pending?.topUp.id == topUp.id ? pending?.developmentCode : nil)
                pending = (topUp, code)
                stage = .code
                present(.succeeded(.codeSent(topUp, for: confirmation, developmentCode: code)))
            case .failure(let error):
                refused(error)
            }
        })
    }

    private func enterCode(_ code: String, for topUp: PendingTopUp) {
        present(.started)
        inFlight.call({ [transfers] () async throws(NetworkError) in
            try await transfers.confirmTopUp(id: topUp.id, code: code)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let money):
                finish(money)
            case .failure(.declined(let reason)):
                // The issuer declined after its code: that top-up is over, so the same amount again is a new one.
                keys.forget()
                pending = nil
                refused(.declined(reason: reason))
            case .failure(.validation(let detail, let fields)) where fields.isEmpty:
                // Not the code's digits but the code itself (expired, used up): a new confirmation asks for a new one.
                keys.forget()
                present(.failed(.validation(detail: detail, fields: fields)))
            case .failure(let error):
                present(.refused(error))
            }
        })
    }

    private func finish(_ money: AddedMoney) {
        added = money
        pending = nil
        stage = .receipt
        present(.succeeded(.added(money)))
    }

    /// A refusal of the top-up: a decline or an amount the server refused goes back to the amount as typed;
    /// anything else is said where the person is, to retry.
    private func refused(_ error: NetworkError) {
        let outcome = TopUp.Submit.Outcome.refused(error)
        let backToAmount = switch (error, outcome) {
        case (.declined, _), (_, .invalid): true
        default: false
        }
        if backToAmount {
            // The screen goes back to the amount as Esc takes it there, then shows the refusal.
            stage = .amount
            presenter.presentBack(response: .init(stage: .amount, facts: facts))
        }
        present(outcome)
    }

    /// What Enter came to, at the stage the form is at now.
    private func present(_ outcome: TopUp.Submit.Outcome) {
        presenter.presentSubmit(response: .init(outcome, at: stage))
    }

    /// What the words of the stage shown again are made of.
    private var facts: TopUp.StageFacts {
        TopUp.StageFacts(balance: balance, card: card)
    }

    func back(request: TopUp.Back.Request) {
        inFlight.cancel {
            switch stage {
            case .card:
                route(.back)
            case .amount:
                stage = .card
                card = nil
                presenter.presentBack(response: .init(stage: .card, facts: facts))
            case .confirm, .code:
                stage = .amount
                presenter.presentBack(response: .init(stage: .amount, facts: facts))
            case .receipt:
                if let added { route(.added(added)) }
            }
        }
    }

    /// The app's own checks of the fields of the current stage, before anything is sent (the server checks again).
    func problems(in form: TopUp.Form) -> [TopUp.Field: InputProblem] {
        var problems: [TopUp.Field: InputProblem] = [:]
        switch stage {
        case .amount:
            do throws(AmountInput.Problem) { _ = try AmountInput.check(form.amount, currency: balance.currency) } catch {
                problems[.amount] = .amount(error)
            }
        case .code:
            do throws(OneTimeCode.Problem) { try OneTimeCode.validate(form.code) } catch { problems[.code] = .code(error) }
        case .card, .confirm, .receipt:
            break
        }
        return problems
    }
}
