import Foundation

/// Time as the scenes see it: the current date and a way to wait. Passed in, so tests need no real waiting.
public struct SceneClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock and real waiting.
    public static let live = SceneClock(
        now: { Date() },
        sleep: { duration in try await Task.sleep(for: duration) }
    )
}
