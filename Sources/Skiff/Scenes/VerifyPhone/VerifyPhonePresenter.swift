import SkiffCore

@MainActor
protocol VerifyPhonePresentationLogic: AnyObject {
    func presentLoad(response: VerifyPhone.Load.Response)
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

    func presentSubmit(response: VerifyPhone.Submit.Response) {
        viewController?.displaySubmit(viewModel: formatting.codeSubmission(response))
    }
}

extension Formatting {
    /// The view model for any screen that sends a one-time code back.
    func codeSubmission(_ response: VerifyPhone.Submit.Response) -> VerifyPhone.Submit.ViewModel {
        switch response {
        case .invalid(let problem):
            return .init(codeError: message(for: problem), banner: nil, isBusy: false, clearCode: false)
        case .started:
            return .init(codeError: nil, banner: nil, isBusy: true, clearCode: false)
        case .succeeded:
            return .init(codeError: nil, banner: nil, isBusy: false, clearCode: true)
        case .resent:
            return .init(codeError: nil, banner: BannerMessage(.info, "We sent a new code."), isBusy: false, clearCode: true)
        case .failed(.validation(let detail, let fields)):
            return .init(codeError: fields.first?.message ?? detail, banner: nil, isBusy: false, clearCode: true)
        case .failed(let error):
            return .init(
                codeError: nil, banner: message(for: error).map { BannerMessage(.error, $0) }, isBusy: false, clearCode: false
            )
        }
    }
}
