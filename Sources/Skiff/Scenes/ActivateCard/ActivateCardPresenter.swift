import SkiffCore

@MainActor
protocol ActivateCardPresentationLogic: AnyObject {
    func presentLoad(response: ActivateCard.Load.Response)
    func presentValidateField(response: ActivateCard.ValidateField.Response)
    func presentSubmit(response: ActivateCard.Submit.Response)
}

/// Words card activation, each answer at the stage it names.
@MainActor
final class ActivateCardPresenter: ActivateCardPresentationLogic, ScenePresentation {
    weak var viewController: (any ActivateCardDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: ActivateCard.Load.Response) {
        viewController?.displayLoad(viewModel: .init(
            title: "Activate \(response.card.name)",
            instructions: PromptedText(
                "Enter the last four digits printed on your card.", prompts: [KeyPrompt(.submit, "get a code")]
            )
        ))
    }

    func presentValidateField(response: ActivateCard.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: ActivateCard.Submit.Response) {
        let stage = response.stage
        var viewModel = ActivateCard.Submit.ViewModel(stage: stage, form: .init())
        switch response.outcome {
        case .invalid(let problems):
            viewModel.form.fieldErrors = formatting.messages(for: problems)
        case .started:
            viewModel.form.isBusy = true
        case .succeeded(.codeSent(let challenge, let code)):
            viewModel.form.instructions = "We sent a 6-digit code to your phone. It works until \(formatting.time(challenge.expiresAt))."
            viewModel.form.banner = formatting.developmentBanner(code: code)
        case .succeeded(.activated(let card)):
            viewModel.form.banner = BannerMessage(.info, "\(card.name) is active.")
            viewModel.form.clear = [.code]
        case .failed(.validation(let detail, _)):
            viewModel.form.fieldErrors = [stage == .code ? .code : .last4: detail]
            if stage == .code { viewModel.form.clear = [.code] }
        case .failed(let error):
            viewModel.form.banner = formatting.message(for: error).map { BannerMessage(.error, $0) }
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }
}
