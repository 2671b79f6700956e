import Foundation
import SkiffCore
import Testing
@testable import Skiff

@Suite("Development codes")
struct DevelopmentCodesTests {
    /// Records what the scenes asked the outbox for.
    final class OutboxSpy: DevelopmentOutboxReading, @unchecked Sendable {
        var asked: [(String, CodePurpose, Date)] = []
        func latestCode(to e164: String, purpose: CodePurpose, since: Date) -> String? {
            asked.append((e164, purpose, since))
            return "482913"
        }
    }

    @Test("the code is read for the number and purpose, sent since just before the request")
    func expected() {
        let outbox = OutboxSpy()
        let sut = DevelopmentCodes(outbox: outbox, clock: .immediate())
        let code = sut.expect(to: "+12025550143", for: .passwordReset).read()
        #expect(code == "482913")
        #expect(outbox.asked.first?.0 == "+12025550143")
        #expect(outbox.asked.first?.1 == .passwordReset)
        #expect(outbox.asked.first?.2 == Seeds.now.addingTimeInterval(-1))
    }

    @Test("without an outbox (a remote server) there is never a code")
    func remote() {
        #expect(DevelopmentCodes(outbox: nil, clock: .immediate()).expect(to: "+12025550143", for: .registration).read() == nil)
    }
}
