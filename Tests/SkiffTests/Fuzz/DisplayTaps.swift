import TerminalUI
@testable import Skiff

/// The generated taps (`SceneTaps`, made by the SceneDoubles plugin) put between each scene's Presenter and its
/// screen while the app runs: every view model the Presenter hands on is shown to `inspect`, then passed to the
/// real screen.
///
/// The app builds scenes itself, so the taps are put in after the fact: `install(on:)` looks at the screens on
/// the navigation stack (and their parts) and puts a tap behind each one that has none yet. The view models a screen gets while it
/// is being built (before the first key reaches it) are not seen here; the frame check sees what they drew.
@MainActor
final class DisplayTaps {
    private let inspect: @MainActor (Any) -> Void
    private var taps: [ObjectIdentifier: (tap: AnyObject, screen: () -> AnyObject?)] = [:]

    init(inspect: @escaping @MainActor (Any) -> Void) {
        self.inspect = inspect
    }

    /// Puts a tap behind every screen on `navigation` that has none yet, and forgets the taps of screens gone.
    /// Returns why a scene's screen on the stack cannot be inspected, if one cannot.
    func install(on navigation: NavigationController) -> String? {
        taps = taps.filter { $0.value.screen() != nil }
        // A screen's parts (Home's balance, cards, spending and transactions) are scenes too, each tapped.
        func withParts(_ screen: ViewController) -> [ViewController] { [screen] + screen.children.flatMap(withParts) }
        for screen in (navigation.viewControllers + navigation.presentedViewControllers).flatMap(withParts) {
            let key = ObjectIdentifier(screen)
            guard taps[key] == nil else { continue }
            switch SceneTaps.tap(screen, inspect: inspect) {
            case .tapped(let tap): taps[key] = (tap, { [weak screen] in screen })
            case .notAScene: continue
            case .uninspectable(let why): return why
            }
        }
        return nil
    }
}
