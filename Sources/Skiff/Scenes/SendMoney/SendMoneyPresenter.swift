@MainActor
protocol SendMoneyPresentationLogic: AnyObject {
    func presentValidateField(response: SendMoney.ValidateField.Response)
    func presentSubmit(response: SendMoney.Submit.Response)
}

/// Words Send money's field errors and the outcome of sending the form.
@MainActor
final class SendMoneyPresenter: SendMoneyPresentationLogic, ScenePresentation {
    weak var viewController: (any SendMoneyDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentValidateField(response: SendMoney.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: SendMoney.Submit.Response) {
        viewController?.displaySubmit(viewModel: .init(response, formatting: formatting) { _ in [KeyPrompt(.submit, "try again")] })
    }
}
