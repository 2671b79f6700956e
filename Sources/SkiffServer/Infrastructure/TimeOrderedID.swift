import Foundation

/// A UUID of version 7 (RFC 9562) as lowercase text: 48 bits of Unix milliseconds, then 74 random bits. Rows keyed by
/// it go in at the end of their index rather than on a random page of it, so a batch of transfers dirties (and writes
/// to SQLite's WAL) fewer pages ([0177](../../../docs/decisions/0177-statement-lines-at-the-end-of-a-group-commit.md)).
/// It says when the row was made, to the millisecond, which its `createdAt` says anyway.
enum TimeOrderedID {
    static func make(at date: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(at: date, using: &generator)
    }

    static func make(at date: Date, using generator: inout some RandomNumberGenerator) -> String {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down))) & 0xFFFF_FFFF_FFFF
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        for index in 6..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(index))) }
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(index - 8))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
        return uuid.uuidString.lowercased()
    }
}
