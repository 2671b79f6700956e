import Foundation

/// A one-time code on its way to a phone. `Redacted`: printing it shows the purpose and the number, never the code.
///
/// It is also one line of the development SMS outbox, the file the server "texts" codes to and a development client
/// reads them from: `outboxLine()` writes the line and `outboxMessages(in:)` reads them, so the format is stated
/// here once for both sides.
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

extension OutgoingCode {
    /// The message as one line of the outbox, newline included: a JSON object with sorted keys
    /// (`{"code":…,"purpose":…,"sentAt":…,"to":…}`) and `sentAt` in ISO 8601, whole seconds, UTC.
    public func outboxLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// The messages of an outbox's contents, oldest first. A line that holds no message (a write torn by a crash,
    /// anything else) is skipped, so one bad line never hides the codes after it.
    public static func outboxMessages(in contents: Data) -> [OutgoingCode] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return contents.split(separator: 0x0A).compactMap { try? decoder.decode(OutgoingCode.self, from: Data($0)) }
    }
}
