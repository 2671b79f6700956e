import SkiffCore

@MainActor
protocol AddCardPresentationLogic: AnyObject {
    func presentLoad(response: AddCard.Load.Response)
    func presentNumberChanged(response: AddCard.NumberChanged.Response)
    func presentValidateField(response: AddCard.ValidateField.Response)
    func presentSubmit(response: AddCard.Submit.Response)
    func presentBack(response: AddCard.Back.Response)
}

/// Words Add card: the brand as soon as it is known, masked confirmation, and errors that say what to do; each
/// answer at the stage it names.
@MainActor
final class AddCardPresenter: AddCardPresentationLogic, ScenePresentation {
    weak var viewController: (any AddCardDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: AddCard.Load.Response) {
        viewController?.displayLoad(viewModel: .init(holderName: response.holderName))
    }

    func presentNumberChanged(response: AddCard.NumberChanged.Response) {
        viewController?.displayNumberChanged(viewModel: .init(
            brandName: response.brand == .unknown ? nil : response.brand.displayName,
            grouping: response.brand.grouping,
            maxDigits: response.brand.maxLength,
            securityCodeLength: response.brand.securityCodeLength
        ))
    }

    func presentValidateField(response: AddCard.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: AddCard.Submit.Response) {
        var viewModel = AddCard.Submit.ViewModel(
            stage: response.stage, fieldErrors: [:], confirmation: nil, banner: nil, isBusy: false, focus: nil
        )
        switch response.outcome {
        case .invalid(let problems):
            viewModel.fieldErrors = formatting.messages(for: problems)
            viewModel.focus = AddCard.Field.allCases.first { problems[$0] != nil }
        case .succeeded(.confirm(let brand, let last4, let expiry, let holderName)):
            let card = CardNumber.name(brand: brand, last4: last4)
            viewModel.confirmation = FormConfirmation(title: "Add \(card) to your wallet?", rows: [
                .init(label: "Card", value: card),
                .init(label: "Name", value: holderName),
                .init(label: "Expires", value: formatting.expiry(month: expiry.month, year: expiry.year)),
            ])
            viewModel.banner = BannerMessage(.info, "", prompts: [KeyPrompt(.submit, "add this card"), KeyPrompt(.back, "change it")])
        case .started:
            viewModel.isBusy = true
        case .succeeded(.added):
            // The flow is over and the screen goes at once: Home words the card added.
            viewModel.clearSecrets = true
        case .failed(.conflict(let detail)):
            // Already on this account, or on another one: the server says which.
            viewModel.banner = BannerMessage(.error, detail)
        case .failed(.stillRunning):
            viewModel.banner = BannerMessage(
                .info, "The card is still being added.", prompts: [KeyPrompt(.submit, "see the result in a moment")]
            )
        case .failed(.timeout):
            viewModel.banner = BannerMessage(
                .error, "The server took too long to answer; the card will not be added twice.",
                prompts: [KeyPrompt(.submit, "try again")]
            )
        case .failed(let error):
            viewModel.banner = formatting.message(for: error).map { BannerMessage(.error, $0) }
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }

    func presentBack(response: AddCard.Back.Response) {
        viewController?.displayBack(viewModel: .init(stage: response.stage, clearSecrets: response.leaving))
    }
}
