import SkiffCore

@MainActor
protocol RegisterPresentationLogic: AnyObject {
    func presentLoad(response: Register.Load.Response)
    func presentValidateField(response: Register.ValidateField.Response)
    func presentSubmit(response: Register.Submit.Response)
}

/// Words Register's outcomes.
@MainActor
final class RegisterPresenter: RegisterPresentationLogic, ScenePresentation {
    weak var viewController: (any RegisterDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: Register.Load.Response) {
        viewController?.displayLoad(viewModel: formatting.phonePrefill(response))
    }

    func presentValidateField(response: Register.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: Register.Submit.Response) {
        let viewModel: Register.Submit.ViewModel
        switch response {
        case .invalid(let problems):
            viewModel = .init(
                fieldErrors: formatting.messages(for: problems), banner: nil, isBusy: false,
                focus: Register.Field.allCases.first { problems[$0] != nil }
            )
        case .started:
            viewModel = .init(fieldErrors: [:], banner: nil, isBusy: true, focus: nil)
        case .succeeded:
            viewModel = .init(fieldErrors: [:], banner: nil, isBusy: false, focus: nil)
        case .failed(.conflict):
            viewModel = .init(
                fieldErrors: [.phoneNumber: "This number already has an account. Log in or reset the password."],
                banner: nil, isBusy: false, focus: .phoneNumber
            )
        case .failed(let error):
            viewModel = .init(
                fieldErrors: [:], banner: formatting.message(for: error).map { BannerMessage(.error, $0) },
                isBusy: false, focus: nil
            )
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }
}
