import Foundation
import SkiffCore

/// Delivers one-time codes. The default writes them to a local SMS outbox file; a deployment would send SMS.
public protocol CodeSender: Sendable {
    func send(_ message: OutgoingCode) async throws
}
