import SkiffCore

@MainActor
protocol VerifyPhonePresentationLogic: AnyObject {
    func presentLoad(response: VerifyPhone.Load.Response)
    func presentValidateField(response: VerifyPhone.ValidateField.Response)
    func presentSubmit(response: VerifyPhone.Submit.Response)
}

/// Words the code screen: where the code went, until when it works, and what went wrong.
@MainActor
final class VerifyPhonePresenter: VerifyPhonePresentationLogic, ScenePresentation {
    weak var viewController: (any VerifyPhoneDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: VerifyPhone.Load.Response) {
        viewController?.displayLoad(viewModel: .init(
            instructions: "We sent a 6-digit code to \(response.phone.displayString). It works until \(formatting.time(response.challenge.expiresAt)).",
            developmentBanner: formatting.developmentBanner(code: response.developmentCode)
        ))
    }

    func presentValidateField(response: VerifyPhone.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: VerifyPhone.Submit.Response) {
        var viewModel = VerifyPhone.Submit.ViewModel()
        switch response {
        case .invalid(let problems):
            viewModel.fieldErrors = formatting.messages(for: problems)
            // A code the server refused is used up or wrong: it goes; one the app refused stays to be corrected.
            if problems.values.contains(where: \.isFromServer) { viewModel.clear = [.code] }
        case .started:
            viewModel.isBusy = true
        case .succeeded(.verified):
            viewModel.clear = [.code]
        case .succeeded(.resent):
            viewModel.banner = BannerMessage(.info, "We sent a new code.")
            viewModel.clear = [.code]
        case .failed(.validation(let detail, _)):
            viewModel.fieldErrors = [.code: detail]
            viewModel.clear = [.code]
        case .failed(let error):
            viewModel.banner = formatting.message(for: error).map { BannerMessage(.error, $0) }
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }
}
