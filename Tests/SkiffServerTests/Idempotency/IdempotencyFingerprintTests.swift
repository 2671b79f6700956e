import Crypto
import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Idempotency fingerprint")
struct IdempotencyFingerprintTests {
    let key = ServerKey(key: SymmetricKey(size: .bits256))

    @Test("The bodies the API's money and card calls send take the plain path, and it writes what Foundation writes")
    func plainBodies() throws {
        let bodies = [
            #"{"recipientId":"0f1e2d3c-aaaa-4bbb-8ccc-123456789abc","amountMinor":1234,"currency":"USD"}"#,
            #"{ "currency" : "USD", "amountMinor": 500, "recipientId": "x", "note": "Rent for May", "stepUpToken": null }"#,
            #"{"cardId":"c-1","amountMinor":25000,"currency":"USD"}"#,
            #"{"code":"123456"}"#,
            "{}",
        ]
        for body in bodies {
            let bytes = Array(body.utf8)
            let plain = try #require(PlainObject.canonical(bytes), "\(body)")
            #expect(plain == IdempotencyFingerprint.foundationCanonicalBody(bytes, key: key), "\(body)")
        }
    }

    @Test("Whatever the plain path takes, it writes byte for byte what Foundation writes; the rest it leaves to Foundation")
    func sameAsFoundation() {
        let keys = ["amountMinor", "AmountMinor", "amountminor", "note", "Note", "a", "B", "b", "zeta", "Alpha", "aa", "aB",
                    "card1", "password", "number", "cvc", "x_y", ""]
        let values = [#""USD""#, #""""#, #""hello world""#, #""a/b""#, #""caf\#u{e9}""#, #""x\"y""#, #""tab\tin""#,
                      "0", "-1", "7", "123456789012345", "-123456789012345", "1234567890123456", "01", "-0", "1.5", "2e3",
                      "true", "false", "null", "{}", "[]", #"{"a":1}"#, "tru", "nulll"]
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        var generator = SplitMix64(seed: 2_025)
        var plainCount = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...5, using: &generator)
            var body = spaces.randomElement(using: &generator)! + "{"
            for position in 0..<count {
                if position > 0 { body += "," }
                body += spaces.randomElement(using: &generator)! + "\"" + keys.randomElement(using: &generator)! + "\""
                body += spaces.randomElement(using: &generator)! + ":" + spaces.randomElement(using: &generator)!
                body += values.randomElement(using: &generator)! + spaces.randomElement(using: &generator)!
            }
            body += "}" + spaces.randomElement(using: &generator)!
            let bytes = Array(body.utf8)
            guard let plain = PlainObject.canonical(bytes) else { continue }
            plainCount += 1
            #expect(plain == IdempotencyFingerprint.foundationCanonicalBody(bytes, key: key), "\(body)")
        }
        // Both paths are exercised: the plain one takes a good share, and refuses the rest.
        #expect(plainCount > 300 && plainCount < 2_700, "\(plainCount) of 3,000 bodies took the plain path")
    }

    @Test("Not JSON, trailing bytes, or a body that is not an object: left to Foundation")
    func refused() {
        for body in ["", "[1]", "\"x\"", "{", "{\"a\":1", "{\"a\":1} x", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{\"a\":1}}"] {
            #expect(PlainObject.canonical(Array(body.utf8)) == nil, "\(body)")
        }
    }
}
