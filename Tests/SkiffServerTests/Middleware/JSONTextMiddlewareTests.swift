import Foundation
import SkiffAPI
import Testing
@testable import SkiffServer

@Suite("JSON text check")
struct JSONTextMiddlewareTests {
    private func fault(_ text: String) -> JSONTextCheck.Fault? {
        Array(text.utf8).withUnsafeBytes { JSONTextCheck.firstFault(in: $0) }
    }

    @Test("The field named is the first string holding NUL, key or value, however deep")
    func nul() {
        #expect(fault(#"{"a":"fine","b":{"c":[1,"x\u0000"]}}"#) == .nul(field: "b.c.[1]"))
        #expect(fault(#"{"a":"fine","b":{"x\u0000y":1}}"#) == .nul(field: "b.x\u{0}y"))
        #expect(fault(#"[{"a":[]},{"a":{},"b":"\u0000"}]"#) == .nul(field: "[1].b"))
        #expect(fault(#""\u0000""#) == .nul(field: "body"))
        #expect(fault(#"{"a":"fine"}"#) == nil)
        #expect(fault(#"{"a":"\\u0000"}"#) == nil, "an escaped backslash, then the text u0000")
        #expect(fault(#"{"a":"\\\u0000"}"#) == .nul(field: "a"))
    }

    @Test("A key named twice in one object is found, however it is spelled; the same key in two objects is not")
    func repeatedKeys() {
        #expect(fault(#"{"amountMinor":2,"amountMinor":3}"#) == .repeatedKey(field: "amountMinor"))
        #expect(fault(#"{"a":1, "b":{"c":1,"d":[true,false,null],"c":2}}"#) == .repeatedKey(field: "b.c"))
        #expect(fault(#"{"note":"a","n\u006Fte":"b"}"#) == .repeatedKey(field: "note"), "an escape spells the same key")
        #expect(fault(#"{"\u212A":1,"K":2}"#) == .repeatedKey(field: "K"), "the Kelvin sign is K, canonically")
        #expect(fault(#"{"\ud83d\udc4d":1,"👍":2}"#) == .repeatedKey(field: "👍"), "a surrogate pair is its character")
        #expect(fault(#"[{"a":1,"b":2},{"a":1,"b":2}]"#) == nil)
        #expect(fault(#"{"a":{"a":{"a":1}},"b":-500}"#) == nil)
        #expect(fault(#"{"recipientId":"x\u0000","recipientId":"ok"}"#) == .nul(field: "recipientId"), "text order")
    }

    @Test("A number with a point, an exponent or past 64 bits is named: the API takes whole numbers in digits only")
    func wholeNumbers() {
        #expect(fault(#"{"amountMinor":100.5}"#) == .notWholeNumber(field: "amountMinor"))
        #expect(fault(#"{"a":[1,{"b":1e30}]}"#) == .notWholeNumber(field: "a.[1].b"))
        #expect(fault(#"{"amountMinor":9223372036854775808}"#) == .notWholeNumber(field: "amountMinor"))
        #expect(fault(#"{"amountMinor":-9223372036854775809}"#) == .notWholeNumber(field: "amountMinor"))
        // Issue 45: `1e2` and `100.00` are 100 to the decoder, which a client meaning dollars would not expect as cents.
        for written in ["1e3", "1.5e3", "100.0", "100.00", "2E+2", "1e2", "-0.0"] {
            #expect(fault(#"{"a":\#(written)}"#) == .notWholeNumber(field: "a"), "\(written)")
        }
        for whole in ["9223372036854775807", "-9223372036854775808", "0", "-0", "100"] {
            #expect(fault(#"{"a":\#(whole)}"#) == nil, "\(whole)")
        }
        // Whole numbers are all the API takes: a `number` in the contract would make this check refuse its values.
        #expect(SkiffContract.document.contains("type: integer") && !SkiffContract.document.contains("type: number"))
    }

    @Test("Text that is not JSON is left to the decoder; nested arrays deeper than any stack do not overflow it")
    func notJSON() {
        for text in ["", "{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, "[1,]", "{\"a\":\"x\u{0}\"}", #"{"a":"\x"}"#,
                     #"{"a":01}"#, #"{"a":1.}"#, #"{"a":tru}"#, #"{"a":"\u00"}"#, "{\"a\":1 \"a\":2}"] {
            #expect(fault(text) == nil, "\(text)")
        }
        #expect(fault(String(repeating: "[", count: 200_000)) == nil)
        #expect(fault(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
        #expect(fault(String(repeating: #"{"a":"#, count: 50_000) + #""\u0000""# + String(repeating: "}", count: 50_000))
            == .nul(field: Array(repeating: "a", count: 50_000).joined(separator: ".")))
    }
}
