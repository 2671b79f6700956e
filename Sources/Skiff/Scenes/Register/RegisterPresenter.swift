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
        var viewModel = Register.Submit.ViewModel(response, formatting: formatting)
        if case .failed(.conflict) = response {
            viewModel = .init(
                fieldErrors: [.phoneNumber: "This number already has an account. Log in or reset the password."],
                focus: .phoneNumber
            )
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }
}
