public import Foundation

/// How a `LiveEvent` of `GET /v1/events` is written and read as an event's `data:` line: JSON with the contract's
/// dates (`InternetDateTranscoder`), the same at both ends.
package enum LiveEventCoding {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetDateTranscoder().encode(date))
        }
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try InternetDateTranscoder().decode(decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }
}
