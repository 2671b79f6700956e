@MainActor
public protocol LaunchPresentationLogic: AnyObject {
    func presentStart(response: Launch.Start.Response)
}

/// Words the launch screen.
@MainActor
public final class LaunchPresenter: LaunchPresentationLogic {
    public weak var viewController: (any LaunchDisplayLogic)?

    public init() {}

    public func presentStart(response: Launch.Start.Response) {
        viewController?.displayStart(viewModel: .init(subtitle: "Connecting to \(response.serverDescription)…"))
    }
}
