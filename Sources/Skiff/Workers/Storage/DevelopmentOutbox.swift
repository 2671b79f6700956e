import Foundation
import SkiffCore

/// Reads the embedded server's SMS outbox (one JSON object a line: `to`, `code`, `purpose`, `sentAt`).
struct DevelopmentOutbox: DevelopmentOutboxReading {
    private let file: URL

    init(file: URL) {
        self.file = file
    }

    private struct Line: Decodable {
        var to: String
        var code: String
        var purpose: CodePurpose
        var sentAt: Date
    }

    func latestCode(to e164: String, purpose: CodePurpose, since: Date) -> String? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        for line in data.split(separator: 0x0A).reversed() {
            guard let message = try? JSONCoding.decoder.decode(Line.self, from: Data(line)) else { continue }
            if message.sentAt < since { return nil }
            if message.to == e164 && message.purpose == purpose { return message.code }
        }
        return nil
    }
}
