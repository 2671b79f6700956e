import SkiffCore

@MainActor
protocol TopUpPresentationLogic: AnyObject {
    func presentLoad(response: TopUp.Load.Response)
    func presentChooseCard(response: TopUp.ChooseCard.Response)
    func presentValidateField(response: TopUp.ValidateField.Response)
    func presentFormatAmount(response: TopUp.FormatAmount.Response)
    func presentSubmit(response: TopUp.Submit.Response)
    func presentBack(response: TopUp.Back.Response)
}

/// Words Top up: the cards and why some cannot be chosen (naming the keys that mend it), the amount's problems,
/// the confirmation, the wait for the card's bank (where to confirm), a decline, the receipt, and what became of a
/// top-up whose answer was lost.
@MainActor
final class TopUpPresenter: TopUpPresentationLogic, ScenePresentation {
    weak var viewController: (any TopUpDisplayLogic)?
    private let formatting: Formatting
    private let keys: WalletKeys

    init(formatting: Formatting = Formatting(), keys: WalletKeys = .standard) {
        self.formatting = formatting
        self.keys = keys
    }

    func presentLoad(response: TopUp.Load.Response) {
        viewController?.displayLoad(viewModel: .init(
            instructions: response.choices.isEmpty
                ? "You have no cards added to top up from. Add one with \(keys.label(for: .addCard)) on Home, then come back."
                : cardWords(balance: response.balance),
            rows: response.choices.map { choice in
                .init(
                    title: choice.card.name,
                    detail: choice.refusal.map { shortReason($0, of: choice.card) } ?? formatting.cardSummary(choice.card),
                    isChoosable: choice.refusal == nil
                )
            },
            currencySign: response.balance.sign
        ))
    }

    func presentChooseCard(response: TopUp.ChooseCard.Response) {
        let card = response.choice.card
        if let refusal = response.choice.refusal {
            viewController?.displayChooseCard(viewModel: .init(
                stage: .card, instructions: nil,
                banner: BannerMessage(.error, "\(card.name) cannot be used. \(reason(refusal, of: card)).")
            ))
            return
        }
        viewController?.displayChooseCard(viewModel: .init(stage: .amount, instructions: amountWords(card: card), banner: nil))
    }

    /// The list's words, when there are cards to choose from.
    private func cardWords(balance: Money) -> String {
        "Choose the card to add money from. You have \(formatting.amount(balance))."
    }

    /// The amount's words, for the card chosen.
    private func amountWords(card: Card) -> String {
        "From \(card.name). How much would you like to add?"
    }

    func presentValidateField(response: TopUp.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentFormatAmount(response: TopUp.FormatAmount.Response) {
        // The amount as written, not blurred: it is what the person typed.
        viewController?.displayFormatAmount(viewModel: .init(text: response.amount.formatted(withSign: false)))
    }

    /// Back to the list (only there when it has cards) or to the amount for the card chosen: their words again.
    func presentBack(response: TopUp.Back.Response) {
        let card = response.stage == .card ? nil : response.facts.card
        viewController?.displayBack(viewModel: .init(
            stage: response.stage, instructions: card.map(amountWords) ?? cardWords(balance: response.facts.balance)
        ))
    }

    func presentSubmit(response: TopUp.Submit.Response) {
        let stage = response.stage
        var viewModel = TopUp.Submit.ViewModel(response, formatting: formatting) { _ in [KeyPrompt(.retry, "try again")] }
        switch response.outcome {
        case .succeeded(.confirm(let confirmation)):
            viewModel.form.instructions = "Check the card and the amount before the money is added."
            viewModel.form.confirmation = FormConfirmation(
                title: "Add \(confirmation.amount.formatted()) to your wallet?",
                rows: [.init(label: "From", value: confirmation.card.name), .init(label: "Amount", value: confirmation.amount.formatted())]
            )
        case .succeeded(.waitingForBank(let topUp, let confirmation)):
            let what = "\(confirmation.amount.formatted()) from \(confirmation.card.name)"
            viewModel.form.instructions = topUp.actionURL.map {
                "Your card's bank asks you to confirm the payment of \(what). Open this address to confirm it:\n"
                    + "\($0.absoluteString)\nThe money is added as soon as your bank says yes."
            } ?? "The card network is still working on \(what). The money is added as soon as it is done."
        case .succeeded(.stoppedWaiting(let confirmation)):
            viewModel.form.banner = BannerMessage(
                .info, "Stopped waiting for your bank. If you confirm the payment there, the money still arrives.",
                prompts: [KeyPrompt(.submit, "confirm \(confirmation.amount.formatted()) again to wait once more")]
            )
        case .succeeded(.added(let money)):
            var words = "Added \(money.amount.formatted()) from \(money.cardName). Reference \(money.reference)."
            if money.replayed { words += " The first try had already added it: it was added once." }
            viewModel.form.instructions = words
        case .failed(.declined(let reason)):
            // The amount stays as typed: another card, or another amount.
            viewModel.form.banner = BannerMessage(.error, reason, prompts: [KeyPrompt(.back, "choose another card")])
            viewModel.form.focus = .amount
        case .failed(.unreachable) where stage == .confirm:
            // No connection was made: the request never left.
            viewModel.form.banner = BannerMessage(
                .error, "Can't reach the server; nothing was added.", prompts: [KeyPrompt(.retry, "try again")]
            )
        case .failed(let error) where stage == .confirm && Self.answerLost(error):
            // The request may have reached the server: say so, and that a retry cannot add it twice.
            viewModel.form.banner = BannerMessage(
                .error, "No answer came, so the money may or may not have been added.",
                prompts: [KeyPrompt(.retry, "try again: it is never added twice")]
            )
        case .invalid, .started, .failed:
            break
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }

    /// Why money cannot come from `card`, in a word or two: the list's detail beside the card's name, in a form's
    /// readable width. Enter on the card says it whole, with the keys that mend it (`reason`).
    private func shortReason(_ refusal: TopUpSource.Refusal, of card: Card) -> String {
        switch refusal {
        case .frozen: "Frozen"
        case .expired: "Expired \(formatting.expiry(month: card.expiryMonth, year: card.expiryYear))"
        case .skiffCard: "Spends from this wallet"
        }
    }

    /// Why money cannot come from `card`, with the keys that mend it.
    private func reason(_ refusal: TopUpSource.Refusal, of card: Card) -> String {
        switch refusal {
        case .frozen:
            "Frozen — unfreeze it on Cards (\(keys.label(for: .openCards)) on Home, then \(keys.label(for: .freezeCard)))"
        case .expired:
            "Expired \(formatting.expiry(month: card.expiryMonth, year: card.expiryYear)) — "
                + "add its new card (\(keys.label(for: .addCard)) on Home)"
        case .skiffCard:
            "The Skiff card spends from this wallet"
        }
    }

    /// A failure after which the top-up may or may not have been made: the request left, and its answer was lost on
    /// the way (not `.unreachable`: no connection was made, so nothing left).
    private static func answerLost(_ error: NetworkError) -> Bool {
        switch error {
        case .timeout, .connectionLost, .cancelled, .stillRunning, .server: true
        default: false
        }
    }
}
