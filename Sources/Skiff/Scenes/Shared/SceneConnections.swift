import TerminalUI

/// A scene's view controller, as the factory connects it to its Interactor.
@MainActor
protocol SceneDisplay: SceneViewController {
    associatedtype BusinessLogic
    var interactor: BusinessLogic? { get set }
}

/// A scene's Presenter, as the factory connects it to its view controller (held weakly).
@MainActor
protocol ScenePresentation: AnyObject {
    associatedtype DisplayLogic
    var viewController: DisplayLogic? { get set }
}
