import Foundation
import Testing

extension EndToEnd {
    /// Drives the real `skiff` binary in tmux: Alex sends Jordan money from Home, and a larger amount with the password.
    @Suite("Send money end to end", .serialized)
    struct SendMoneyEndToEndTests {
        let skiff: String
        let dataDirectory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            dataDirectory = NSTemporaryDirectory() + "skiff-e2e-send-\(UUID().uuidString)"
        }

        /// Runs `skiff-server` with `arguments` on the database the app's built-in server will open.
        private func server(_ arguments: [String]) async throws {
            let wallet = dataDirectory + "/data/wallet"
            try FileManager.default.createDirectory(
                atPath: wallet, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            for folder in [dataDirectory, dataDirectory + "/data"] {
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try BuiltProduct.path("skiff-server"))
            process.arguments = arguments + [
                "--bcrypt-cost", "10", "--database", wallet + "/skiff.sqlite", "--sms-outbox", wallet + "/sms-outbox.jsonl",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Waited for without blocking a thread of the shared pool, which the suite's other tests need.
            while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "skiff-server \(arguments.first ?? "")")
        }

        @Test("s on Home: $12.50 to Jordan R. with a note, the receipt, Home with the new balance and the transfer on top; $150 asks for the password")
        func sendMoney() async throws {
            try await server(["seed-demo"])
            try await server(["seed", "--phone", "202 555 0111", "--name", "Jordan Rivera", "--password", "river-stones-8", "--transactions", "0"])
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
            let home = try await session.waitFor("Balance $")
            #expect(!home.contains("Jordan R."))

            try session.type("s")
            try await session.waitFor("Send money to anyone")
            try session.type("202 555 0111")
            try session.sendKeys("Tab")
            try session.type("12.5")
            try session.sendKeys("Tab")
            try await session.waitFor("$ 12.50")
            try session.type("Lunch")
            try session.sendKeys("Enter")
            let confirm = try await session.waitFor("Send $12.50 to Jordan R.?")
            #expect(confirm.contains("Lunch"))
            // Issue 42, point 4: Enter on the confirmation does not send (the cursor is on Change: back to the form,
            // every field kept); a digit is answered in words; only `y` sends.
            try session.sendKeys("Enter")
            let back = try await session.waitFor("Phone number")
            #expect(back.contains("202 555 0111") && back.contains("$ 12.50") && back.contains("Lunch"))
            try session.sendKeys("Enter")
            try await session.waitFor("Send $12.50 to Jordan R.?")
            try session.type("5")
            try await session.waitFor("Nothing was sent and nothing was typed")
            try session.type("y")
            let receipt = try await session.waitFor("Sent $12.50 to Jordan R.")
            let reference = try #require(receipt.firstMatch(of: /SKF-[0-9A-Z]{8}/).map { String($0.output) })
            try session.sendKeys("Enter")
            let after = try await session.waitFor("Jordan R.")
            #expect(after.contains("Balance $"))
            #expect(after.contains("-$12.50"))
            // Issue 42, point 3: the note in the row, the note and the receipt's reference in the detail, and
            // search finds the line by either.
            #expect(after.contains("“Lunch”"), "\(after)")
            try session.sendKeys("Home")
            try session.sendKeys("Enter")
            let detail = try await session.waitFor("Reference")
            #expect(detail.contains(reference), "\(detail)")
            #expect(detail.contains("Note") && detail.contains("Lunch"))
            try session.sendKeys("Escape")
            try await session.waitFor("Balance $")
            for query in [reference, "unc"] {
                try session.type("/")
                try session.type(query)
                try session.sendKeys("Enter")
                let found = try await session.waitFor("matching “\(query)”")
                #expect(found.contains("-$12.50"), "search \(query): \(found)")
                try session.sendKeys("Escape")
                try await session.waitForAbsence("matching “")
            }

            try session.type("s")
            try await session.waitFor("Send money to anyone")
            try session.type("202 555 0111")
            try session.sendKeys("Tab")
            try session.type("150")
            try session.sendKeys("Enter")
            try await session.waitFor("need your password")
            // Issue 42, point 5: `?` in the password opens the help; Ctrl-V ? would type it.
            try session.type("?")
            try await session.waitFor("then ?: type a question mark")
            try session.sendKeys("Escape")
            try await session.waitForAbsence("then ?: type a question mark")
            try session.type("not-my-password")
            try session.sendKeys("Enter")
            try await session.waitFor("The password is not right.")
            try session.type("sail-away-2026")
            try session.sendKeys("Enter")
            try await session.waitFor("Sent $150.00 to Jordan R.")
            try session.sendKeys("Escape")
            try await session.waitFor("-$150.00")

            try session.type("q")
            let exit = try await session.waitFor("EXIT=", timeout: 30)
            #expect(exit.contains("EXIT=0"))
            let log = try String(contentsOfFile: dataDirectory + "/state/skiff.log", encoding: .utf8)
            #expect(!log.contains("sail-away-2026"))
            #expect(!log.contains("not-my-password"))
        }
    }
}
