import Foundation
import SkiffCore

/// Counted events in a sliding window, across instances (recipient lookups).
protocol RateWindowRepository: Sendable {
    /// In one step, serialised per `scope`: counts the events of `scope` after `since`; when fewer than `limit`,
    /// records one at `date` and returns nil; otherwise records nothing and returns the oldest counted event's date.
    func take(scope: String, at date: Date, since: Date, limit: Int) async throws -> Date?
}
