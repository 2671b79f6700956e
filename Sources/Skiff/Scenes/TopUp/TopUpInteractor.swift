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
/// of that confirmation (decision 0152's way), so a retry after a lost answer carries on with the top-up the first
/// try made. When the card's bank asks its holder to confirm the payment (3-D Secure), the scene shows where and
/// asks the server every `bankPollInterval` until the network has settled it; Esc stops waiting (the top-up goes on
/// at the bank, and confirming the same amount again carries on with it).
@MainActor
final class TopUpInteractor: TopUpBusinessLogic {
    private let presenter: any TopUpPresentationLogic
    private let transfers: any TransferWorking
    private let clock: SceneClock
    /// The balance Home showed: its currency is the top-up's.
    private let balance: Money
    /// The added cards, each with why money cannot come from it (nil when it can), as of when the screen opened.
    let choices: [TopUp.Choice]
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    var route: (TopUpRoute) -> Void = { _ in }

    /// How often the server is asked about a top-up waiting for the card's bank.
    static let bankPollInterval: Duration = .seconds(2)

    private(set) var stage: TopUp.Stage = .card
    let inFlight: RequestInFlight
    private(set) var card: Card?
    /// What the person is asked to confirm, once the amount passed.
    private(set) var confirmation: TopUp.Confirmation?
    private var added: AddedMoney?
    /// One key per confirmed top-up: the same confirmation sent again carries the same key.
    private let keys: RetryKeys<TopUp.Confirmation>

    init(
        presenter: any TopUpPresentationLogic, transfers: any TransferWorking, cards: [Card], balance: Money,
        clock: SceneClock = .live, tasks: TaskTracker, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.transfers = transfers
        self.clock = clock
        self.balance = balance
        let now = clock.now()
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
        case .card, .bank: break
        case .amount: askToConfirm(request.form)
        case .confirm: confirm()
        case .receipt: if let added { route(.added(added)) }
        }
    }

    private func askToConfirm(_ form: TopUp.Form) {
        guard let card, let amount = try? AmountInput.check(form.amount, currency: balance.currency) else { return }
        let confirmation = TopUp.Confirmation(card: card, amount: amount)
        self.confirmation = confirmation
        stage = .confirm
        present(.succeeded(.confirm(confirmation)))
    }

    /// Enter on the confirmation: the top-up asked for under the confirmation's key.
    private func confirm() {
        guard let confirmation else { return }
        let key = keys.key(for: confirmation)
        let order = TopUpOrder(card: confirmation.card, amount: confirmation.amount)
        present(.started)
        inFlight.call({ [transfers] () async throws(NetworkError) in
            try await transfers.topUp(order, idempotencyKey: key)
        }, then: { [weak self] in self?.settled($0, confirmation) })
    }

    /// What the network said of the top-up: added, waiting for the bank (then ask again), or refused.
    private func settled(_ result: Result<TopUpProgress, NetworkError>, _ confirmation: TopUp.Confirmation) {
        switch result {
        case .success(.added(let money)):
            finish(money)
        case .success(.waiting(let topUp)):
            stage = .bank
            present(.succeeded(.waitingForBank(topUp, for: confirmation)))
            waitForBank(topUp, confirmation)
        case .failure(let error):
            if case .declined = error { keys.forget() }
            refused(error)
        }
    }

    /// Asks the server where the top-up stands, every `bankPollInterval` (or later, when the server says when), until it
    /// is settled or Esc.
    private func waitForBank(_ topUp: PendingTopUp, _ confirmation: TopUp.Confirmation, after pause: Duration = bankPollInterval) {
        presenter.presentSubmit(response: .init(.started, at: stage))
        inFlight.call({ [transfers, clock] () async throws(NetworkError) in
            do {
                try await clock.sleep(pause)
            } catch {
                throw .cancelled
            }
            return try await transfers.topUpProgress(id: topUp.id)
        }, then: { [weak self] result in
            guard let self, stage == .bank else { return }
            switch result {
            case .success(.waiting(let latest)) where latest.actionURL != topUp.actionURL:
                settled(result, confirmation)
            case .success(.waiting):
                waitForBank(topUp, confirmation)
            case .failure(.cancelled):
                // Esc: the app stops asking; the top-up goes on at the bank.
                stage = .amount
                presenter.presentBack(response: .init(stage: .amount, facts: facts))
                present(.succeeded(.stoppedWaiting(for: confirmation)))
            case .failure(.throttled(let seconds)):
                waitForBank(topUp, confirmation, after: max(Self.bankPollInterval, .seconds(seconds)))
            case .failure(let error) where Self.worthAskingAgain(error):
                // The server or the way to it hiccuped, or the app locked itself while the bank was asked (the lock
                // screen is over this one; once unlocked, the next question is answered): the top-up is where it
                // was; ask again.
                waitForBank(topUp, confirmation)
            default:
                settled(result, confirmation)
            }
        })
    }

    /// A failure of one question about a waiting top-up that says nothing about the top-up itself.
    private static func worthAskingAgain(_ error: NetworkError) -> Bool {
        switch error {
        case .unreachable, .connectionLost, .timeout, .unavailable, .server, .locked: true
        default: false
        }
    }

    private func finish(_ money: AddedMoney) {
        added = money
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
        if backToAmount || stage == .bank {
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
            case .confirm, .bank:
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
        if stage == .amount {
            do throws(AmountInput.Problem) { _ = try AmountInput.check(form.amount, currency: balance.currency) } catch {
                problems[.amount] = .amount(error)
            }
        }
        return problems
    }
}
