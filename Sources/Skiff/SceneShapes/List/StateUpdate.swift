/// What every flow of a scene that keeps one state presents (the list loaded, its next page, an item changed):
/// the whole state, and what the screen shows of it. The scene names it `Update`.
enum StateUpdate<SceneState: Sendable, Shown: Hashable & Sendable> {
    struct Response: Sendable {
        var state: SceneState
    }
    typealias ViewModel = Shown
}
