import Foundation
import Testing

extension EndToEnd {
    /// Issue 42, points 7 and 11 on cards and notifications, through the real `skiff` and its embedded server in tmux.
    @Suite("Cards and notifications end to end", .serialized)
    struct CardsEndToEndTests {
        let skiff: String
        let dataDirectory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            dataDirectory = NSTemporaryDirectory() + "skiff-e2e-\(UUID().uuidString)"
        }

        private func match(_ pattern: String, in text: String) -> String? {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                  let found = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(found.range(at: 1), in: text) else { return nil }
            return String(text[range])
        }

        @Test("""
            Cards offers v and a: wrong last four are refused with no code sent, the right ones activate the card on Cards; \
            a adds a card there; Remove's question keeps the card on Enter; f freezes from the card's detail; Enter opens \
            a notification's text, Esc returns to the list; Ctrl-Q quits from there
            """)
        func cardsAndNotifications() async throws {
            let session = try await TmuxSession.walletShell()
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.startWallet("\(skiff) --data-dir \(dataDirectory)")
            let home = try await session.logIn()
            let last4 = try #require(match(#"•••• (\d{4}) +Skiff card"#, in: home))
            let wrong = last4 == "0000" ? "1111" : "0000"

            try session.type("c")
            let cards = try await session.waitFor("Home › Cards")
            #expect(cards.contains("v activate card") && cards.contains("a add card"))

            // Activate from Cards: the wrong digits send no code.
            try session.type("v")
            try await session.waitFor("Last four digits")
            try session.type(wrong)
            try session.sendKeys("Enter")
            let refused = try await session.waitFor("These are not the last four digits of this card.")
            #expect(!refused.contains("the code is"))
            #expect(!refused.contains("We sent"))
            try session.sendKeys("BSpace", "BSpace", "BSpace", "BSpace")
            try session.type(last4)
            try session.sendKeys("Enter")
            let codeScreen = try await session.waitFor("the code is")
            let code = try #require(match(#"the code is (\d{6})"#, in: codeScreen))
            try session.type(code)
            try session.sendKeys("Enter")
            let active = try await session.waitFor("is active.")
            #expect(active.contains("Home › Cards"))
            #expect(active.contains("Skiff card · expires") && active.contains("· Active"))
            #expect(!active.contains("v activate card"))

            // Add from Cards.
            try session.type("a")
            try await session.waitFor("Card number")
            try session.type("5555555555554444")
            try await session.waitFor("5555 5555 5555 4444")
            try session.sendKeys("Tab", "Tab")
            try session.type("0429")
            try session.sendKeys("Tab")
            try session.type("123")
            try await session.waitFor("•••")
            try session.sendKeys("Enter")
            try await session.waitFor("Press Enter to add this card")
            try session.sendKeys("Enter")
            let added = try await session.waitFor("Mastercard •••• 4444 added.")
            #expect(added.contains("Home › Cards"))

            // Remove's question opens on Keep.
            try session.sendKeys("Down")
            try await session.waitFor("d remove card")
            try session.type("d")
            try await session.waitFor("from your account?")
            try session.sendKeys("Enter")
            let kept = try await session.waitForAbsence("from your account?")
            #expect(kept.contains("Added card"))
            #expect(!kept.contains("removed."))

            // Freeze from the card's detail.
            try session.sendKeys("Enter")
            try await session.waitFor("Another bank (added card)")
            try session.type("f")
            try await session.waitFor("Mastercard •••• 4444 frozen.")
            try session.sendKeys("Escape")
            try await session.waitFor("Added card · expires 04/29 · Frozen")
            try session.sendKeys("Escape")
            try await session.waitFor("Balance $")

            // A notification opens in full; Esc comes back to the list.
            try session.type("n")
            let inbox = try await session.waitFor("Enter open")
            #expect(inbox.contains("Card activated"))
            try session.sendKeys("Enter")
            let opened = try await session.waitForAbsence("Enter open")
            #expect(opened.contains("is ready to use.") || opened.contains("is on your account."))
            #expect(!opened.contains("─ Inbox"))
            try session.sendKeys("Escape")
            try await session.waitFor("─ Inbox")

            try session.sendKeys("C-q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))
        }
    }
}
