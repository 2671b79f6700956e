import Foundation

/// How long the event stream waits before connecting again (docs/decisions/0158-live-stream-reconnects.md): after a
/// failure 1 s, doubling to 30 s, each wait shortened by up to a fifth at random so that many apps left by one server
/// do not all come back at the same instant; after a stream the server ended, the server's `retry:` hint (kept within
/// 0.5–60 s). A connection that opens starts the doubling again.
struct ReconnectPolicy: Sendable {
    static let first: Duration = .seconds(1)
    static let longest: Duration = .seconds(30)
    static let hintRange: ClosedRange<Int64> = 500...60_000

    private(set) var failures = 0
    /// The server's last `retry:` hint, in milliseconds.
    private(set) var hintMilliseconds: Int64 = 3000
    /// A number in 0..<1 (random in the app, fixed in tests).
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    mutating func connected() {
        failures = 0
    }

    mutating func hint(milliseconds: Int64) {
        hintMilliseconds = min(max(milliseconds, Self.hintRange.lowerBound), Self.hintRange.upperBound)
    }

    /// The wait after a connection that failed or broke.
    mutating func afterFailure() -> Duration {
        let doubled = Self.first * (1 << min(failures, 5))
        failures += 1
        let wait = min(doubled, Self.longest)
        return wait - wait * (random() * 0.2)
    }

    /// The wait after a stream the server ended on purpose.
    func afterEnd() -> Duration {
        .milliseconds(hintMilliseconds)
    }
}
