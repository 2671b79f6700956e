import Foundation
import Testing
@testable import SkiffServer

@Suite("Base64url")
struct Base64URLTests {
    @Test("Every length and every byte: '-' and '_' for '+' and '/', no padding, and back")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            let text = data.base64URLEncodedString()
            let expected = data.base64EncodedString().map { character -> String in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": ""
                default: String(character)
                }
            }.joined()
            #expect(text == expected)
            #expect(Data(base64URLEncoded: text) == data)
        }
        #expect(Data([0xfb, 0xff, 0xbf]).base64URLEncodedString() == "-_-_")
        #expect(Data([0xff]).base64URLEncodedString() == "_w")
    }
}
