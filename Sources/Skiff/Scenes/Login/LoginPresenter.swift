import SkiffCore

@MainActor
protocol LoginPresentationLogic: AnyObject {
    func presentLoad(response: Login.Load.Response)
    func presentValidateField(response: Login.ValidateField.Response)
    func presentSubmit(response: Login.Submit.Response)
    func presentThrottle(response: Login.Throttle.Response)
}

/// Words Login's outcomes: field errors, wrong credentials, lock-outs, and the demo hint.
@MainActor
final class LoginPresenter: LoginPresentationLogic, ScenePresentation {
    weak var viewController: (any LoginDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentLoad(response: Login.Load.Response) {
        let hint = response.demo.map { demo in
            let phone = (try? PhoneNumber.parse(countryCode: demo.countryCode, number: demo.phoneNumber).displayString)
                ?? demo.countryCode + " " + demo.phoneNumber
            return "Demo account: \(phone) · password \(demo.password)"
        }
        viewController?.displayLoad(viewModel: .init(
            countryCode: response.lastLogin?.countryCode ?? "+1",
            phoneNumber: response.lastLogin?.phoneNumber ?? "",
            hint: hint,
            notice: response.notice.map(Self.notice)
        ))
    }

    private static func notice(_ notice: Login.Notice) -> BannerMessage {
        switch notice {
        case .sessionEnded: BannerMessage(.error, "Your session has ended. Please log in again.")
        case .passwordChanged: BannerMessage(.info, "Your password was changed. Log in with the new one.")
        case .loggedOut: BannerMessage(.info, "You are logged out.")
        case .savedSessionUnreadable: BannerMessage(.error, "Your saved session could not be read and was set aside. Please log in again.")
        }
    }

    func presentValidateField(response: Login.ValidateField.Response) {
        viewController?.displayValidateField(viewModel: .init(
            field: response.field, message: response.problem.map { formatting.message(for: $0) }
        ))
    }

    func presentSubmit(response: Login.Submit.Response) {
        let viewModel: Login.Submit.ViewModel
        switch response {
        case .invalid(let problems):
            viewModel = .init(
                fieldErrors: formatting.messages(for: problems), banner: nil, isBusy: false, clearPassword: false,
                focus: Login.Field.allCases.first { problems[$0] != nil }
            )
        case .started:
            viewModel = .init(fieldErrors: [:], banner: nil, isBusy: true, clearPassword: false, focus: nil)
        case .succeeded:
            viewModel = .init(fieldErrors: [:], banner: nil, isBusy: false, clearPassword: true, focus: nil)
        case .failed(.unauthorised):
            viewModel = .init(
                fieldErrors: [:], banner: BannerMessage(.error, "The phone number or password is incorrect."),
                isBusy: false, clearPassword: true, focus: .password
            )
        case .failed(let error):
            let retry = error == .unreachable || error == .timeout ? [KeyPrompt(.retry, "retry")] : []
            viewModel = .init(
                fieldErrors: [:], banner: formatting.message(for: error).map { BannerMessage(.error, $0, prompts: retry) },
                isBusy: false, clearPassword: false, focus: nil
            )
        }
        viewController?.displaySubmit(viewModel: viewModel)
    }

    func presentThrottle(response: Login.Throttle.Response) {
        let banner = response.remainingSeconds > 0
            ? BannerMessage(.error, "Too many attempts. Try again in \(formatting.countdown(seconds: response.remainingSeconds)).")
            : BannerMessage(.info, "You can try again now.")
        viewController?.displayThrottle(viewModel: .init(banner: banner))
    }
}
