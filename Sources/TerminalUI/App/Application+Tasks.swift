/// Async work on the main actor, tracked so tests can `settle()` it.
extension Application {
    /// Runs async work on the main actor, tracked for `settle()`; the screen is redrawn when it ends.
    @discardableResult
    public func task(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        tasks.run(operation)
    }

    /// Waits until every tracked task has finished, then draws. Tests call this after sending keys that start
    /// async work.
    public func settle() async {
        await tasks.settle()
        renderIfNeeded()
    }
}
