import SkiffCore

@MainActor
protocol SendMoneyPresentationLogic: AnyObject {
    func presentLoad(response: SendMoney.Load.Response)
    func presentValidateField(response: SendMoney.ValidateField.Response)
    func presentFormatAmount(response: SendMoney.FormatAmount.Response)
    func presentSubmit(response: SendMoney.Submit.Response)
    func presentBack(response: SendMoney.Back.Response)
    func presentStrayKey(response: SendMoney.StrayKey.Response)
    func presentUpdateBalance(response: SendMoney.UpdateBalance.Response)
    func presentPickRecent(response: SendMoney.PickRecent.Response)
    func presentCountNote(response: SendMoney.CountNote.Response)
}

/// Words Send money: the balance (as it changes), the recent recipients, the fields' problems, the note's count, the
/// confirmation, the receipt, and what became of a transfer whose answer was lost; each answer at the stage it
/// names.
@MainActor
final class SendMoneyPresenter: SendMoneyPresentationLogic, ScenePresentation {
    weak var viewController: (any SendMoneyDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: SendMoney.Load.Response) {
        viewController?.displayLoad(viewModel: .init(
            instructions: formWords(balance: response.balance), countryCode: "+1", currencySign: response.balance.sign,
            recents: response.recents.map { recent in
                [recent.name, recent.phone?.displayString ?? recent.number].filter { !$0.isEmpty }.joined(separator: " · ")
            }
        ))
    }

    /// The form's words follow the balance, shown at once on the form; on the other stages their words stay, and
    /// Back brings the balance on the way back to the form.
    func presentUpdateBalance(response: SendMoney.UpdateBalance.Response) {
        guard response.stage == .form else { return }
        viewController?.displayUpdateBalance(viewModel: .init(instructions: formWords(balance: response.balance)))
    }

    /// The number as the form holds it: `+1` and `202 555 0111`.
    func presentPickRecent(response: SendMoney.PickRecent.Response) {
        let phone = response.phone
        let code = "+" + phone.countryCode
        let shown = phone.displayString
        let number = shown.hasPrefix(code + " ") ? String(shown.dropFirst(code.count + 1)) : phone.nationalNumber
        viewController?.displayPickRecent(viewModel: .init(countryCode: code, phoneNumber: number))
    }

    func presentCountNote(response: SendMoney.CountNote.Response) {
        viewController?.displayCountNote(viewModel: .init(
            text: "\(response.used)/\(response.limit)", isOver: response.used > response.limit
        ))
    }

    private func formWords(balance: Money) -> String {
        "Send money to anyone with a Skiff account, by their phone number. You have \(formatting.amount(balance))."
    }

    func presentValidateField(response: SendMoney.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentFormatAmount(response: SendMoney.FormatAmount.Response) {
        // The amount as written, not blurred: it is what the person typed.
        viewController?.displayFormatAmount(viewModel: .init(text: response.amount.formatted(withSign: false)))
    }

    /// Back to the form: its own words again, with the balance.
    func presentBack(response: SendMoney.Back.Response) {
        viewController?.displayBack(viewModel: .init(stage: response.stage, instructions: formWords(balance: response.facts)))
    }

    func presentSubmit(response: SendMoney.Submit.Response) {
        let stage = response.stage
        var viewModel = SendMoney.Submit.ViewModel(
            stage: stage, form: .init(response.outcome, formatting: formatting) { _ in [KeyPrompt(.retry, "try again")] }
        )
        switch response.outcome {
        case .succeeded(.confirm(let confirmation)):
            viewModel.form.instructions = confirmationWords(confirmation)
            viewModel.form.focus = confirmation.needsPassword ? .password : nil
            viewModel.form.confirmation = box(confirmation)
            viewModel.sendTitle = sendTitle(confirmation)
        case .succeeded(.sent(let transfer)):
            // A shortened name already ends its sentence ("Jordan R.").
            var words = "Sent \(transfer.amount.formatted()) to \(transfer.recipient.displayName)"
            if !words.hasSuffix(".") { words += "." }
            words += " Reference \(transfer.reference)."
            if transfer.replayed { words += " The first try had already sent it: it was sent once." }
            viewModel.form.instructions = words
            viewModel.form.clear = [.password]
        case .invalid(let problems) where problems[.password] != nil:
            viewModel.form.clear = [.password]
        case .failed(.validation(_, let fields)) where fields.contains(where: { $0.field == SendMoney.Field.password.rawValue }):
            viewModel.form.clear = [.password]
        case .failed(.stepUpRequired):
            viewModel.form.fieldErrors[.password] = formatting.message(for: .stepUpRequired)
            viewModel.form.banner = nil
            viewModel.form.clear = [.password]
            viewModel.form.focus = .password
        case .failed(.throttled(let seconds)) where stage == .form:
            // Only the lookup runs on the form: too many numbers looked up.
            viewModel.form.banner = nil
            viewModel.form.fieldErrors[.phoneNumber] = "Too many numbers looked up. Try again in \(formatting.countdown(seconds: seconds))."
            viewModel.form.focus = .phoneNumber
        case .failed(.throttled):
            viewModel.form.clear = [.password]
        case .failed(.unreachable) where stage == .confirm:
            // No connection was made: the request never left.
            viewModel.form.banner = BannerMessage(
                .error, "Can't reach the server; nothing was sent.", prompts: [KeyPrompt(.retry, "try again")]
            )
        case .failed(let error) where stage == .confirm && Self.answerLost(error):
            // The request may have reached the server: say so, and that a retry cannot send it twice.
            viewModel.form.banner = BannerMessage(
                .error, "No answer came, so the money may or may not have gone.",
                prompts: [KeyPrompt(.retry, "try again: it is never sent twice")]
            )
        case .invalid, .started, .failed:
            break
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }

    func presentStrayKey(response: SendMoney.StrayKey.Response) {
        let confirmation = response.confirmation
        let words = "Nothing was sent and nothing was typed: this is the confirmation."
        let send = "send \(confirmation.amount.formatted()) to \(name(confirmation))"
        let prompts = [
            confirmation.needsPassword ? KeyPrompt(.submit, send + " once your password is typed") : KeyPrompt(.confirmSend, send),
            KeyPrompt(.back, "change the number, amount or note"),
        ]
        viewController?.displayStrayKey(viewModel: .init(banner: BannerMessage(.info, words, prompts: prompts)))
    }

    /// "Check who gets the money before you send it." with the password where the amount asks for it.
    private func confirmationWords(_ confirmation: SendMoney.Confirmation) -> String {
        guard confirmation.needsPassword else { return "Check who gets the money before you send it." }
        return "Check who gets the money. Amounts over "
            + Money(amountMinor: TransferRules.stepUpAboveMinor, currency: confirmation.amount.currency).formatted()
            + " need your password to send."
    }

    /// Who (by the full name the server knows), their number, how much and the note, as a box of rows.
    private func box(_ confirmation: SendMoney.Confirmation) -> FormConfirmation {
        var rows: [DetailContent.Row] = [
            .init(label: "To", value: name(confirmation)),
            .init(label: "Number", value: confirmation.phone.displayString),
            .init(label: "Amount", value: confirmation.amount.formatted()),
        ]
        if let note = confirmation.note { rows.append(.init(label: "Note", value: "“\(note)”")) }
        return .init(title: "\(sendTitle(confirmation)) to \(confirmation.recipient.displayName)?", rows: rows)
    }

    private func name(_ confirmation: SendMoney.Confirmation) -> String {
        confirmation.recipient.fullName ?? confirmation.recipient.displayName
    }

    /// "Send $5.00": the button's words, and the title's.
    private func sendTitle(_ confirmation: SendMoney.Confirmation) -> String {
        "Send \(confirmation.amount.formatted())"
    }

    /// A failure after which the transfer may or may not have been made: the request left, and its answer was lost
    /// on the way (not `.unreachable`: no connection was made, so nothing left).
    private static func answerLost(_ error: NetworkError) -> Bool {
        switch error {
        case .timeout, .connectionLost, .cancelled, .stillRunning, .server: true
        default: false
        }
    }
}
