import TerminalUI
@testable import Skiff

/// Spies put between each scene's Presenter and its ViewController while the app runs: every view model the
/// Presenter hands on is shown to `inspect`, then passed to the real screen.
///
/// The app builds scenes itself, so the spies are put in after the fact: `install(on:)` looks at the screens on
/// the navigation stack and, for each one not yet spied on, reaches its Presenter through its Interactor and
/// swaps the Presenter's (weak) view for a spy that holds the screen weakly. The view models a screen gets while
/// it is being built (before the first key reaches it) are not seen here; the frame check sees what they drew.
@MainActor
final class DisplaySpies {
    private let inspect: @MainActor (Any) -> Void
    private var spies: [ObjectIdentifier: (spy: AnyObject, screen: () -> AnyObject?)] = [:]

    init(inspect: @escaping @MainActor (Any) -> Void) {
        self.inspect = inspect
    }

    /// Puts a spy behind every screen on `navigation` that has none yet, and forgets the spies of screens gone.
    func install(on navigation: NavigationController) {
        spies = spies.filter { $0.value.screen() != nil }
        for screen in navigation.viewControllers + navigation.presentedViewControllers {
            let key = ObjectIdentifier(screen)
            guard spies[key] == nil, let spy = spy(for: screen) else { continue }
            spies[key] = (spy, { [weak screen] in screen })
        }
    }

    /// The Interactor's presenter, which the Interactor keeps private.
    private func presenter(of interactor: Any?) -> Any? {
        guard let interactor else { return nil }
        return Mirror(reflecting: interactor).children.first { $0.label == "presenter" }?.value
    }

    private func spy(for screen: ViewController) -> AnyObject? {
        switch screen {
        case let screen as ActivateCardViewController:
            guard let presenter = presenter(of: screen.interactor) as? ActivateCardPresenter else { return nil }
            let spy = ActivateCardDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as AddCardViewController:
            guard let presenter = presenter(of: screen.interactor) as? AddCardPresenter else { return nil }
            let spy = AddCardDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as ForgotPasswordViewController:
            guard let presenter = presenter(of: screen.interactor) as? ForgotPasswordPresenter else { return nil }
            let spy = ForgotPasswordDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as HomeViewController:
            guard let presenter = presenter(of: screen.interactor) as? HomePresenter else { return nil }
            let spy = HomeDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as LaunchViewController:
            guard let presenter = presenter(of: screen.interactor) as? LaunchPresenter else { return nil }
            let spy = LaunchDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as LoginViewController:
            guard let presenter = presenter(of: screen.interactor) as? LoginPresenter else { return nil }
            let spy = LoginDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as NotificationsViewController:
            guard let presenter = presenter(of: screen.interactor) as? NotificationsPresenter else { return nil }
            let spy = NotificationsDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as RegisterViewController:
            guard let presenter = presenter(of: screen.interactor) as? RegisterPresenter else { return nil }
            let spy = RegisterDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as TransactionDetailViewController:
            guard let presenter = presenter(of: screen.interactor) as? TransactionDetailPresenter else { return nil }
            let spy = TransactionDetailDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        case let screen as VerifyPhoneViewController:
            guard let presenter = presenter(of: screen.interactor) as? VerifyPhonePresenter else { return nil }
            let spy = VerifyPhoneDisplayTap(screen: screen, inspect: inspect)
            presenter.viewController = spy
            return spy
        default:
            return nil
        }
    }
}

@MainActor
private final class ActivateCardDisplayTap: ActivateCardDisplayLogic {
    weak var screen: (any ActivateCardDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any ActivateCardDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: ActivateCard.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displaySubmit(viewModel: ActivateCard.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }
}

@MainActor
private final class AddCardDisplayTap: AddCardDisplayLogic {
    weak var screen: (any AddCardDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any AddCardDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: AddCard.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displayNumberChanged(viewModel: AddCard.NumberChanged.ViewModel) {
        inspect(viewModel)
        screen?.displayNumberChanged(viewModel: viewModel)
    }

    func displayValidateField(viewModel: AddCard.ValidateField.ViewModel) {
        inspect(viewModel)
        screen?.displayValidateField(viewModel: viewModel)
    }

    func displaySubmit(viewModel: AddCard.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }

    func displayBack(viewModel: AddCard.Back.ViewModel) {
        inspect(viewModel)
        screen?.displayBack(viewModel: viewModel)
    }
}

@MainActor
private final class ForgotPasswordDisplayTap: ForgotPasswordDisplayLogic {
    weak var screen: (any ForgotPasswordDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any ForgotPasswordDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: ForgotPassword.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displayValidateField(viewModel: ForgotPassword.ValidateField.ViewModel) {
        inspect(viewModel)
        screen?.displayValidateField(viewModel: viewModel)
    }

    func displaySubmit(viewModel: ForgotPassword.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }
}

@MainActor
private final class HomeDisplayTap: HomeDisplayLogic {
    weak var screen: (any HomeDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any HomeDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayUpdate(viewModel: Home.Update.ViewModel) {
        inspect(viewModel)
        screen?.displayUpdate(viewModel: viewModel)
    }

    func displayLoadSpending(viewModel: Home.LoadSpending.ViewModel) {
        inspect(viewModel)
        screen?.displayLoadSpending(viewModel: viewModel)
    }

    func displaySelectCategory(viewModel: Home.SelectCategory.ViewModel) {
        inspect(viewModel)
        screen?.displaySelectCategory(viewModel: viewModel)
    }
}

@MainActor
private final class LaunchDisplayTap: LaunchDisplayLogic {
    weak var screen: (any LaunchDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any LaunchDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayStart(viewModel: Launch.Start.ViewModel) {
        inspect(viewModel)
        screen?.displayStart(viewModel: viewModel)
    }
}

@MainActor
private final class LoginDisplayTap: LoginDisplayLogic {
    weak var screen: (any LoginDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any LoginDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: Login.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displayValidateField(viewModel: Login.ValidateField.ViewModel) {
        inspect(viewModel)
        screen?.displayValidateField(viewModel: viewModel)
    }

    func displaySubmit(viewModel: Login.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }

    func displayThrottle(viewModel: Login.Throttle.ViewModel) {
        inspect(viewModel)
        screen?.displayThrottle(viewModel: viewModel)
    }
}

@MainActor
private final class NotificationsDisplayTap: NotificationsDisplayLogic {
    weak var screen: (any NotificationsDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any NotificationsDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayUpdate(viewModel: Notifications.Update.ViewModel) {
        inspect(viewModel)
        screen?.displayUpdate(viewModel: viewModel)
    }
}

@MainActor
private final class RegisterDisplayTap: RegisterDisplayLogic {
    weak var screen: (any RegisterDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any RegisterDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: Register.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displayValidateField(viewModel: Register.ValidateField.ViewModel) {
        inspect(viewModel)
        screen?.displayValidateField(viewModel: viewModel)
    }

    func displaySubmit(viewModel: Register.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }
}

@MainActor
private final class TransactionDetailDisplayTap: TransactionDetailDisplayLogic {
    weak var screen: (any TransactionDetailDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any TransactionDetailDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: TransactionDetail.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }
}

@MainActor
private final class VerifyPhoneDisplayTap: VerifyPhoneDisplayLogic {
    weak var screen: (any VerifyPhoneDisplayLogic)?
    let inspect: @MainActor (Any) -> Void

    init(screen: any VerifyPhoneDisplayLogic, inspect: @escaping @MainActor (Any) -> Void) {
        self.screen = screen
        self.inspect = inspect
    }

    func displayLoad(viewModel: VerifyPhone.Load.ViewModel) {
        inspect(viewModel)
        screen?.displayLoad(viewModel: viewModel)
    }

    func displaySubmit(viewModel: VerifyPhone.Submit.ViewModel) {
        inspect(viewModel)
        screen?.displaySubmit(viewModel: viewModel)
    }
}
