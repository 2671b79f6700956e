import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol SendMoneyBusinessLogic: FormBusinessLogic where Field == SendMoney.Field, Form == SendMoney.Form {
    func load(request: SendMoney.Load.Request)
    func validateField(request: SendMoney.ValidateField.Request)
    func submit(request: SendMoney.Submit.Request)
    func back(request: SendMoney.Back.Request)
    func strayKey(request: SendMoney.StrayKey.Request)
    func updateBalance(request: SendMoney.UpdateBalance.Request)
    func pickRecent(request: SendMoney.PickRecent.Request)
    func countNote(request: SendMoney.CountNote.Request)
}

/// Where Send money sends the person next.
enum SendMoneyRoute: Sendable {
    /// The money went, and the person has seen the receipt.
    case sent(SentTransfer)
    case back
}

/// Checks the form, looks the recipient up, asks for a confirmation (and the password above the step-up amount),
/// then sends the transfer once: its Idempotency-Key is made when the person confirms and sent again with every
/// retry of that confirmation (an edited one gets a new key), with the same step-up proof, so a retry after a
/// lost answer finds the transfer the first try made instead of making a second.
@MainActor
final class SendMoneyInteractor: SendMoneyBusinessLogic {
    private let presenter: any SendMoneyPresentationLogic
    private let transfers: any TransferWorking
    /// Where the numbers money went to are remembered, for the signed-in user `userID`.
    private let preferences: any PreferencesStoring
    private let userID: String
    /// What can be sent at most, and the currency: the balance Home showed, then as the live stream tells it.
    private(set) var balance: Money
    /// The numbers money last went to, newest first.
    private(set) var recents: [RecentRecipient] = []
    /// Set by the coordinator: where the flow goes when it leaves this scene.
    var route: (SendMoneyRoute) -> Void = { _ in }

    private(set) var stage: SendMoney.Stage = .form
    let inFlight: RequestInFlight
    /// What the person is asked to confirm, once the recipient was found.
    private(set) var confirmation: SendMoney.Confirmation?
    private var sent: SentTransfer?
    /// One key per confirmed transfer: the same confirmation sent again carries the same key.
    private let keys: RetryKeys<SendMoney.Confirmation>
    /// The step-up proof each confirmation was (or will be) sent with, kept so a retry sends the very same request.
    private var proofs: [SendMoney.Confirmation: StepUpProof] = [:]
    /// Confirmations the server asked a password for although their amount alone needs none: the day's transfers
    /// passed the step-up amount (a 403 `step-up-required`).
    private var passwordAsked: Set<SendMoney.Confirmation> = []

    init(
        presenter: any SendMoneyPresentationLogic, transfers: any TransferWorking, preferences: any PreferencesStoring,
        userID: String, balance: Money, tasks: TaskTracker, makeKey: @escaping () -> String = { UUID().uuidString }
    ) {
        self.presenter = presenter
        self.transfers = transfers
        self.preferences = preferences
        self.userID = userID
        self.balance = balance
        keys = RetryKeys(makeKey: makeKey)
        inFlight = RequestInFlight(tasks: tasks)
    }

    func load(request: SendMoney.Load.Request) {
        recents = preferences.recentRecipients(userID: userID).filter { $0.phone != nil }
        presenter.presentLoad(response: .init(balance: balance, recents: recents))
    }

    /// The live stream's balance: what can be sent, and the words, follow it (a balance in another currency is not
    /// this wallet's and is ignored).
    func updateBalance(request: SendMoney.UpdateBalance.Request) {
        guard request.balance.currency == balance.currency, request.balance != balance else { return }
        balance = request.balance
        presenter.presentUpdateBalance(response: .init(balance: balance, stage: stage))
    }

    /// A recent recipient's number into the form, on the form only.
    func pickRecent(request: SendMoney.PickRecent.Request) {
        guard stage == .form, !inFlight.isRunning, recents.indices.contains(request.index),
              let phone = recents[request.index].phone
        else { return }
        presenter.presentPickRecent(response: .init(phone: phone))
    }

    /// How much of the note is used, as the rule counts it.
    func countNote(request: SendMoney.CountNote.Request) {
        presenter.presentCountNote(response: .init(
            used: TransferRules.noteLength(request.note), limit: TransferRules.noteMaxCharacters
        ))
    }

    func validateField(request: SendMoney.ValidateField.Request) {
        let problems = problems(in: request.form)
        presenter.presentValidateField(response: .init(request, problems: problems))
        if request.field == .amount, problems[.amount] == nil, let amount = try? checkAmount(request.form.amount) {
            presenter.presentFormatAmount(response: .init(amount: amount))
        }
    }

    func submit(request: SendMoney.Submit.Request) {
        guard !inFlight.isRunning,
              SendMoney.Submit.Response.passes(problems(in: request.form), at: stage, else: presenter.presentSubmit(response:))
        else { return }
        switch stage {
        case .form: findRecipient(request.form)
        case .confirm: confirm(password: request.form.password)
        case .receipt: if let sent { route(.sent(sent)) }
        }
    }

    private func findRecipient(_ form: SendMoney.Form) {
        guard let phone = try? PhoneNumber.parse(countryCode: form.countryCode, number: form.phoneNumber),
              let amount = try? checkAmount(form.amount)
        else { return }
        // The checks passed: the note is one that can be sent, nil when empty.
        let note = (try? TransferRules.validateNote(form.note)) ?? nil
        present(.started)
        inFlight.call({ [transfers] () async throws(NetworkError) in
            try await transfers.findRecipient(phone: phone)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let recipient):
                let confirmation = SendMoney.Confirmation(
                    recipient: recipient, phone: phone, amount: amount, note: note,
                    needsPassword: TransferRules.needsStepUp(amountMinor: amount.amountMinor)
                )
                self.confirmation = confirmation
                stage = .confirm
                present(.succeeded(.confirm(confirmation)))
            case .failure(let error):
                present(.refused(error, aliases: SendMoney.aliases))
            }
        })
    }

    /// Enter on the confirmation: the key is the confirmation's; a proof of the password first where the amount
    /// needs one and this confirmation has none yet.
    private func confirm(password: String) {
        guard let confirmation else { return }
        let key = keys.key(for: confirmation)
        present(.started)
        if needsPassword(confirmation), proofs[confirmation] == nil {
            inFlight.call({ [transfers] () async throws(NetworkError) in
                try await transfers.stepUp(password: password, recipientID: confirmation.recipient.id, amount: confirmation.amount)
            }, then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let proof):
                    proofs[confirmation] = proof
                    send(confirmation, key: key)
                case .failure(let error):
                    present(.refused(error))
                }
            })
        } else {
            send(confirmation, key: key)
        }
    }

    private func send(_ confirmation: SendMoney.Confirmation, key: String) {
        let order = TransferOrder(
            recipientID: confirmation.recipient.id, amount: confirmation.amount, note: confirmation.note, stepUp: proofs[confirmation]
        )
        inFlight.call({ [transfers] () async throws(NetworkError) in
            try await transfers.send(order, idempotencyKey: key)
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let transfer):
                sent = transfer
                stage = .receipt
                remember(confirmation.phone, as: transfer.recipient.displayName)
                present(.succeeded(.sent(transfer)))
            case .failure(.stepUpRequired):
                // The proof was spent or ran out before this transfer was made, or the day's transfers passed the
                // step-up amount: the password (again), same key.
                proofs[confirmation] = nil
                passwordAsked.insert(confirmation)
                present(.failed(.stepUpRequired))
            case .failure(let error):
                let outcome = SendMoney.Submit.Outcome.refused(error, aliases: SendMoney.aliases)
                if case .invalid = outcome {
                    // The server refused what was typed (the balance, a limit, the recipient): the screen goes back
                    // to the form as Esc takes it there, then shows the refusal on its fields.
                    stage = .form
                    presenter.presentBack(response: .init(stage: .form, facts: balance))
                }
                present(outcome)
            }
        })
    }

    func back(request: SendMoney.Back.Request) {
        inFlight.cancel {
            switch stage {
            case .form: route(.back)
            case .confirm:
                stage = .form
                presenter.presentBack(response: .init(stage: .form, facts: balance))
            case .receipt: if let sent { route(.sent(sent)) }
            }
        }
    }

    /// What Enter came to, at the stage the form is at now.
    private func present(_ outcome: SendMoney.Submit.Outcome) {
        presenter.presentSubmit(response: .init(outcome, at: stage))
    }

    /// A key the confirmation does nothing with: said, so nobody wonders whether it went into the number or sent.
    func strayKey(request: SendMoney.StrayKey.Request) {
        guard stage == .confirm, !inFlight.isRunning, let confirmation else { return }
        presenter.presentStrayKey(response: .init(confirmation: confirmation))
    }

    /// The number money just went to, first among the recent recipients (once), with the name it was sent to.
    private func remember(_ phone: PhoneNumber, as name: String) {
        recents = RecentRecipient.remembering(.init(number: phone.e164, name: name), in: recents)
        preferences.saveRecentRecipients(recents, userID: userID)
    }

    /// What the amount typed comes to: a number that can be sent from the balance, and no more than one transfer may
    /// send (said on the amount, before the recipient is looked up or the password asked).
    private func checkAmount(_ text: String) throws(AmountInput.Problem) -> Money {
        let amount = try AmountInput.check(text, within: balance)
        let limit = Money(amountMinor: TransferRules.transferMaxMinor, currency: amount.currency)
        guard amount.amountMinor <= limit.amountMinor else { throw .overTransferLimit(limit) }
        return amount
    }

    /// The app's own checks of the fields of the current stage, before anything is sent (the server checks again).
    func problems(in form: SendMoney.Form) -> [SendMoney.Field: InputProblem] {
        var problems: [SendMoney.Field: InputProblem] = [:]
        switch stage {
        case .form:
            PhoneInput.check(
                countryCode: form.countryCode, number: form.phoneNumber, countryCodeField: .countryCode, numberField: .phoneNumber,
                into: &problems
            )
            do throws(AmountInput.Problem) { _ = try checkAmount(form.amount) } catch { problems[.amount] = .amount(error) }
            do throws(TransferRules.Problem) { _ = try TransferRules.validateNote(form.note) } catch { problems[.note] = .note(error) }
        case .confirm:
            if let confirmation, needsPassword(confirmation), proofs[confirmation] == nil, form.password.isEmpty {
                problems[.password] = .password(.empty)
            }
        case .receipt:
            break
        }
        return problems
    }

    /// Whether sending `confirmation` takes a proof of the password: its amount alone, or the server said so.
    private func needsPassword(_ confirmation: SendMoney.Confirmation) -> Bool {
        confirmation.needsPassword || passwordAsked.contains(confirmation)
    }
}
