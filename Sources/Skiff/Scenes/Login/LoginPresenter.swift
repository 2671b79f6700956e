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
        var viewModel = Login.Submit.ViewModel(response, formatting: formatting) { error in
            [.unreachable, .connectionLost, .timeout].contains(error) ? [KeyPrompt(.retry, "retry")] : []
        }
        switch response {
        case .succeeded:
            viewModel.clear = [.password]
        case .failed(.unauthorised):
            viewModel.banner = BannerMessage(.error, "The phone number or password is incorrect.")
            viewModel.clear = [.password]
            viewModel.focus = .password
        case .invalid, .started, .failed:
            break
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
