import Foundation
import SkiffCore

/// A one-time code on its way to a phone. `Redacted`: printing it shows the purpose and the number, never the code.
public struct OutgoingCode: Sendable, Codable, Equatable, Redacted {
    /// The E.164 number.
    public var to: String
    /// Six digits.
    public var code: String
    public var purpose: CodePurpose
    public var sentAt: Date

    public init(to: String, code: String, purpose: CodePurpose, sentAt: Date) {
        self.to = to
        self.code = code
        self.purpose = purpose
        self.sentAt = sentAt
    }

    public var redactedDescription: String { "OutgoingCode(\(purpose.rawValue) to \(to), code: <redacted>)" }
}

/// Delivers one-time codes. The default writes them to a local SMS outbox file; a deployment would send SMS.
public protocol CodeSender: Sendable {
    func send(_ message: OutgoingCode) async throws
}
