import Foundation
import SkiffCore

/// Reads the embedded server's SMS outbox (its lines as `OutgoingCode` writes them).
struct DevelopmentOutbox: DevelopmentOutboxReading {
    private let file: URL

    init(file: URL) {
        self.file = file
    }

    func latestCode(to e164: String, purpose: CodePurpose, since: Date) -> String? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        for message in OutgoingCode.outboxMessages(in: data).reversed() {
            if message.sentAt < since { return nil }
            if message.to == e164 && message.purpose == purpose { return message.code }
        }
        return nil
    }
}
