/// The animation timer: it runs only while a view (a spinner) animates.
extension Application {
    /// Advances every running animation by one step and draws.
    func tick() {
        for view in rootView.animatingViews {
            view.tick()
        }
        renderIfNeeded()
    }

    /// Whether an animation timer is running.
    var isAnimating: Bool { animationTask != nil }

    func updateAnimation() {
        let animating = rootView.hasAnimatingViews && exitStatus == nil
        if animating, animationTask == nil {
            animationTask = Task { @MainActor [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 100_000_000)
                    guard !Task.isCancelled, let self else { return }
                    self.tick()
                }
            }
        } else if !animating, let task = animationTask {
            task.cancel()
            animationTask = nil
        }
    }
}
