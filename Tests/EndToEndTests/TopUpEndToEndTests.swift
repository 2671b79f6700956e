import Foundation
import Testing

extension EndToEnd {
    /// Drives the real `skiff` binary in tmux: Alex adds a card, then tops up $250.00 from it with the issuer's code
    /// (shown from the development outbox), and Home shows the balance $250.00 higher.
    @Suite("Top up end to end", .serialized)
    struct TopUpEndToEndTests {
        let skiff: String
        let dataDirectory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            dataDirectory = NSTemporaryDirectory() + "skiff-e2e-topup-\(UUID().uuidString)"
        }

        /// The balance Home shows, in cents.
        private func balance(in screen: String) -> Int? {
            guard let match = screen.firstMatch(of: /Balance \$([0-9,]+)\.([0-9]{2})/),
                  let units = Int(match.1.replacingOccurrences(of: ",", with: "")), let cents = Int(match.2)
            else { return nil }
            return units * 100 + cents
        }

        @Test("t on Home: a card chosen, $250 with the issuer's code (a wrong one first), the receipt, Home $250.00 higher")
        func topUpWithCode() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            try session.type("2025550143")
            try session.sendKeys("Tab")
            try session.type("sail-away-2026")
            try session.sendKeys("Enter")
            try await session.waitFor("Balance $")

            try session.type("t")
            try await session.waitFor("You have no cards added")
            try session.sendKeys("Escape")
            try await session.waitFor("Balance $")

            try session.type("a")
            try await session.waitFor("Card number")
            try session.type("4242424242424242")
            try session.sendKeys("Tab", "Tab")
            try session.type("0429")
            try session.sendKeys("Tab")
            try session.type("123")
            try session.sendKeys("Enter")
            try await session.waitFor("Visa •••• 4242")
            try session.sendKeys("Enter")
            let home = try await session.waitFor("Visa •••• 4242 added.")
            let before = try #require(balance(in: home), "\(home)")

            try session.type("t")
            try await session.waitFor("Choose the card to add money from")
            try session.sendKeys("Enter")
            try await session.waitFor("How much would you like to add?")
            try session.type("250")
            try session.sendKeys("Enter")
            let confirmation = try await session.waitFor("Add $250.00 to your wallet?")
            #expect(confirmation.contains("Visa •••• 4242"), "the card in the confirmation's box")
            try session.sendKeys("Enter")
            let codeScreen = try await session.waitFor("Development server: the code is")
            let code = try #require(codeScreen.firstMatch(of: /the code is ([0-9]{6})/).map { String($0.1) }, "\(codeScreen)")
            try session.type(code == "000000" ? "111111" : "000000")
            try session.sendKeys("Enter")
            try await session.waitFor("The code is not right.")
            try session.type(code)
            try session.sendKeys("Enter")
            let receipt = try await session.waitFor("Added $250.00 from Visa •••• 4242.")
            #expect(receipt.contains("Reference SKF-"))
            try session.sendKeys("Enter")
            let after = try await session.waitFor("+$250.00")
            #expect(balance(in: after) == before + 25_000, "\(after)")

            try session.type("q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))
            let log = try String(contentsOfFile: dataDirectory + "/state/skiff.log", encoding: .utf8)
            #expect(!log.contains("4242424242424242"))
        }
    }
}
