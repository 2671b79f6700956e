import Foundation
import Testing
@testable import SkiffCore

@Suite("Redacted descriptions")
struct RedactedTests {
    /// Everything a value can be printed as: description, debug description, interpolation and `dump`.
    static func renderings(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    @Test("A card number shows its brand and last four only, whichever way it is printed")
    func cardNumber() throws {
        let card = try CardNumber("5555 5555 5555 4444")
        for text in Self.renderings(of: card) {
            #expect(text.contains("Mastercard •••• 4444"), "\(text)")
            #expect(!text.contains("555555"), "\(text)")
        }
        for text in Self.renderings(of: [card]) + Self.renderings(of: Optional(card) as Any) {
            #expect(!text.contains("555555"), "\(text)")
        }
    }

    @Test("A session and the demo credentials never show the token or the password")
    func sessionAndDemo() {
        let session = Session(
            token: "tok_4f9a2c71d3", expiresAt: Date(timeIntervalSince1970: 0),
            user: User(id: "u1", fullName: "Sam Carter", countryCode: "+1", phoneNumber: "2025550100")
        )
        for text in Self.renderings(of: session) {
            #expect(!text.contains("tok_4f9a2c71d3"), "\(text)")
            #expect(text.contains("u1"), "\(text)")
        }
        for text in Self.renderings(of: DemoCredentials.demo) {
            #expect(!text.contains(DemoCredentials.demo.password), "\(text)")
            #expect(text.contains("<redacted>"), "\(text)")
        }
    }
}
