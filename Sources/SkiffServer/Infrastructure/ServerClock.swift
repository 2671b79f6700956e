import Foundation

/// Where the server reads the current time; tests pass a clock they move by hand.
public protocol ServerClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}

extension Date {
    /// Milliseconds since 1970, the form every time is stored in.
    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    init(millisecondsSince1970 value: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(value) / 1000)
    }
}
