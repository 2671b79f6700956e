import TerminalUI

/// A scene's view controller: it holds its Interactor as `interactor`, which the scene's `SceneFactory` method sets.
@MainActor
protocol SceneDisplay: SceneViewController {
    associatedtype BusinessLogic
    var interactor: BusinessLogic? { get set }
}

/// A scene's Presenter: it holds its view controller weakly as `viewController`, which the scene's `SceneFactory`
/// method sets.
@MainActor
protocol ScenePresentation: AnyObject {
    associatedtype DisplayLogic
    var viewController: DisplayLogic? { get set }
}
