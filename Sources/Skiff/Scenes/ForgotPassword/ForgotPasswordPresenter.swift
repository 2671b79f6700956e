import SkiffCore

@MainActor
protocol ForgotPasswordPresentationLogic: AnyObject {
    func presentLoad(response: ForgotPassword.Load.Response)
    func presentValidateField(response: ForgotPassword.ValidateField.Response)
    func presentSubmit(response: ForgotPassword.Submit.Response)
}

/// Words both stages of the reset, each answer at the stage it names.
@MainActor
final class ForgotPasswordPresenter: ForgotPasswordPresentationLogic, ScenePresentation {
    weak var viewController: (any ForgotPasswordDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: ForgotPassword.Load.Response) {
        viewController?.displayLoad(viewModel: formatting.phonePrefill(response))
    }

    func presentValidateField(response: ForgotPassword.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: ForgotPassword.Submit.Response) {
        var viewModel = ForgotPassword.Submit.ViewModel(response, formatting: formatting)
        switch response.outcome {
        case .succeeded(.codeSent(let phone, let challenge, let code)):
            viewModel.form.instructions = "If \(phone.displayString) has an account, we sent it a 6-digit code. "
                + "It works until \(formatting.time(challenge.expiresAt))."
            viewModel.form.banner = formatting.developmentBanner(code: code)
            viewModel.form.focus = .code
        case .failed(.validation(let detail, _)):
            viewModel.form.banner = BannerMessage(.error, detail)
            viewModel.form.clear = [.code, .newPassword, .confirmPassword]
        case .invalid, .started, .failed:
            break
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }
}
