@MainActor
protocol LaunchPresentationLogic: AnyObject {
    func presentStart(response: Launch.Start.Response)
}

/// Words the launch screen.
@MainActor
final class LaunchPresenter: LaunchPresentationLogic, ScenePresentation {
    weak var viewController: (any LaunchDisplayLogic)?

    init() {}

    func presentStart(response: Launch.Start.Response) {
        viewController?.displayStart(viewModel: .init(subtitle: "Connecting to \(response.serverDescription)…"))
    }
}
