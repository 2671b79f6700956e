import Foundation
import Testing

extension EndToEnd {
    /// Drives the real `skiff` binary in tmux through the whole product, against its embedded server.
    @Suite("Wallet end to end", .serialized)
    struct WalletEndToEndTests {
        let skiff: String
        let dataDirectory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            dataDirectory = NSTemporaryDirectory() + "skiff-e2e-\(UUID().uuidString)"
        }

        /// Every file under `folder`, however deep.
        private func files(under folder: String) -> [String] {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
            return enumerator.compactMap { $0 as? String }.map { folder + "/" + $0 }.filter {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        }

        /// The first capture group of `pattern` in `text`.
        /// Types the demo account's number and password on Login and presses Enter.
        private func logInAsDemo(_ session: TmuxSession) throws {
            try session.type("2025550143")
            try session.sendKeys("Tab")
            try session.type("sail-away-2026")
            try session.sendKeys("Enter")
        }

        private func match(_ pattern: String, in text: String) -> String? {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                  let found = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(found.range(at: 1), in: text) else { return nil }
            return String(text[range])
        }

        @Test("login → Home → add card → “Visa •••• 4242 added.” on Home → activate card → log out → quit; terminal restored, no card number on disk")
        func wholeFlow() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")

            let login = try await session.waitFor("Log in with your phone number", timeout: 60)
            #expect(login.contains("Demo account: +1 202 555 0143 · password sail-away-2026"))
            try logInAsDemo(session)
            let home = try await session.waitFor("Balance $")
            #expect(home.contains("Alex Rivera"))
            #expect(home.contains("Skiff card"))
            let issuedLast4 = try #require(match(#"•••• (\d{4}) +Skiff card"#, in: home))

            try session.type("a")
            try await session.waitFor("Card number")
            try session.type("4242424242424242")
            try await session.waitFor("4242 4242 4242 4242")
            try session.sendKeys("Tab", "Tab")
            try session.type("0429")
            try session.sendKeys("Tab")
            try session.type("123")
            let filled = try await session.waitFor("•••")
            #expect(filled.contains("Visa"))
            #expect(!filled.contains("123"))
            try session.sendKeys("Enter")
            let confirm = try await session.waitFor("Press Enter to add this card")
            #expect(confirm.contains("Visa •••• 4242"))
            #expect(!confirm.contains("4242 4242"))
            try session.sendKeys("Enter")
            let added = try await session.waitFor("Visa •••• 4242 added.")
            #expect(added.contains("Added card"))
            #expect(!added.contains("Add a card from another bank"))

            try session.type("v")
            try await session.waitFor("Last four digits")
            try session.type(issuedLast4)
            try session.sendKeys("Enter")
            let codeScreen = try await session.waitFor("the code is")
            let code = try #require(match(#"the code is (\d{6})"#, in: codeScreen))
            try session.type(code)
            try session.sendKeys("Enter")
            let active = try await session.waitFor("is active.")
            #expect(active.contains("Skiff card · expires"))
            #expect(!active.contains("press v to activate"))

            try session.type("L")
            try await session.waitFor("You are logged out.")
            try session.sendKeys("C-q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))

            try session.typeLine("clear; stty -a; echo STTY-$((40+2))")
            let stty = try await session.waitFor("STTY-42")
            let modes = try #require(TerminalModes(sttyOutput: stty))
            #expect(modes.canonical)
            #expect(modes.echo)

            let stored = files(under: dataDirectory)
            #expect(stored.contains { $0.hasSuffix("skiff.sqlite") })
            #expect(stored.contains { $0.hasSuffix("skiff.log") })
            for file in stored {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                for needle in ["4242424242424242", "4242 4242 4242 4242"] {
                    #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file) holds the full card number")
                }
            }
            let session2 = try String(contentsOfFile: dataDirectory + "/state/skiff.log", encoding: .utf8)
            #expect(!session2.contains("sail-away-2026"))
            #expect(!session2.contains(code))
        }

        @Test("Home's Spending panel: g hides and shows it, it folds on a small terminal, Enter on a category filters the list")
        func spending() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            try logInAsDemo(session)
            let home = try await session.waitFor("Spent $")
            #expect(home.contains("Spending · "))
            // Against the same days of last month, named: "12% more than October 1–26 ($1,189.00)".
            #expect(match(#"(?:than|over) [A-Z][a-z]+ (1(?:–[0-9]{1,2})?)\b"#, in: home) != nil, "\(home)")

            try session.type("g")
            try await session.waitForAbsence("Spent $")
            try session.type("g")
            try await session.waitFor("Spent $")
            try session.resize(width: 80, height: 20)
            try await session.waitForAbsence("Spent $")
            try session.resize(width: 100, height: 30)
            try await session.waitFor("Spent $")

            try session.sendKeys("Tab")
            try session.sendKeys("Enter")
            // Issue 42, point 10: that category in the chart's month, counted in the title.
            let title = #"─ [0-9]+\+? in (.+?) in [A-Z][a-z]+"#
            let filtered = try await session.waitUntil("the category's transactions") { match(title, in: $0) != nil }
            let category = try #require(match(title, in: filtered))
            #expect(filtered.contains("Search: \(category)"))
            #expect(filtered.contains("· \(category)"))
            try session.sendKeys("Escape")
            let cleared = try await session.waitForAbsence(" in \(category) in ")
            #expect(!cleared.contains("Search:"))
            try session.sendKeys("q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))
        }

        @Test("--lock-after 2: Home locks by itself with nothing of the account drawn; the demo password unlocks; Ctrl-C quits")
        func idleLock() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory) --lock-after 2; echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            try logInAsDemo(session)
            try await session.waitFor("Balance $")
            try await Task.sleep(for: .seconds(3))
            let locked = try await session.waitFor("Ctrl-O to log out")
            #expect(locked.contains("Locked"))
            for hidden in ["Balance", "$", "••••", "Transactions", "Skiff card"] {
                #expect(!locked.contains(hidden), "the lock screen shows “\(hidden)”")
            }
            try session.type("sail-away-2026")
            try session.sendKeys("Enter")
            let home = try await session.waitFor("Balance $")
            #expect(home.contains("Skiff card"))
            try session.sendKeys("C-c")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=130"))
        }

        @Test("The mouse wheel scrolls Home's transactions and a click opens one; --no-mouse leaves the mouse to the terminal")
        func mouse() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; SKIFF_NO_MOUSE=1 \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            #expect(try !session.reportsMouse())
            try session.sendKeys("C-c")
            try await session.waitFor("EXIT=", timeout: 30)

            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            #expect(try session.reportsMouse())
            try logInAsDemo(session)
            let home = try await session.waitFor("Balance $")
            let lines = home.components(separatedBy: "\n")
            let firstRow = try #require(lines.firstIndex { $0.contains("─ Transactions · ") }) + 1
            let before = lines[firstRow]
            try session.sendMouse(65, x: 10, y: firstRow)
            try session.sendMouse(65, x: 10, y: firstRow)
            let scrolled = try await session.waitUntil("the list to scroll") {
                let now = $0.components(separatedBy: "\n")
                return now.count > firstRow && now[firstRow] != before && now[firstRow].contains("│")
            }
            #expect(scrolled.contains("Balance $"), "the wheel scrolls in place")
            try session.sendMouse(0, x: 10, y: firstRow)
            try session.sendMouse(0, x: 10, y: firstRow, release: true)
            try session.sendMouse(0, x: 10, y: firstRow)
            try session.sendMouse(0, x: 10, y: firstRow, release: true)
            let detail = try await session.waitFor("Home › ")
            #expect(!detail.contains("─ Transactions · "), "the second click opened the row")

            try session.sendKeys("C-c")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=130"))
            #expect(try !session.reportsMouse())
        }

        @Test("Cards: freeze → Frozen on Home → unfreeze → add a card → remove it after the confirmation → quit")
        func manageCards() async throws {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: dataDirectory)
            }
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            try logInAsDemo(session)
            try await session.waitFor("Balance $")

            try session.type("c")
            try await session.waitFor("Home › Cards")
            try session.type("f")
            try await session.waitFor("frozen.")
            try session.sendKeys("Escape")
            let frozen = try await session.waitFor("Balance $")
            #expect(frozen.contains("Skiff card · expires") && frozen.contains("· Frozen"))
            #expect(!frozen.contains("Press v to activate"))
            try session.type("c")
            try await session.waitFor("Home › Cards")
            try session.type("f")
            try await session.waitFor("unfrozen.")
            try session.sendKeys("Escape")
            try await session.waitFor("Press v to activate")

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
            try await session.waitFor("Added card")

            try session.type("c")
            try await session.waitFor("Home › Cards")
            try session.sendKeys("Down")
            try session.type("d")
            let question = try await session.waitFor("from your account?")
            #expect(question.contains("Remove Mastercard •••• 4444"))
            // The question opens on Keep: Left reaches Remove.
            try session.sendKeys("Left", "Enter")
            try await session.waitFor("removed.")
            try session.sendKeys("Escape")
            let home = try await session.waitFor("Balance $")
            #expect(!home.contains("Added card"))
            try session.type("q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))
        }
    }
}
