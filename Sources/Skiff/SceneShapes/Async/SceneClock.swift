import Foundation

/// Time as the scenes see it: the current date and a way to wait. Passed in, so tests need no real waiting.
struct SceneClock: Sendable {
    var now: @Sendable () -> Date
    var sleep: @Sendable (Duration) async throws -> Void

    init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock and real waiting.
    static let live = SceneClock(
        now: { Date() },
        sleep: { duration in try await Task.sleep(for: duration) }
    )
}
