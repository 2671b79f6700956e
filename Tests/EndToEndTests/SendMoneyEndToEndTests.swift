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
            try await session.waitFor("$12.50")
            try session.type("Lunch")
            try session.sendKeys("Enter")
            let confirm = try await session.waitFor("Send $12.50 to Jordan R.?")
            #expect(confirm.contains("Lunch"))
            try session.sendKeys("Enter")
            let receipt = try await session.waitFor("Sent $12.50 to Jordan R.")
            #expect(receipt.contains("Reference SKF-"))
            try session.sendKeys("Enter")
            let after = try await session.waitFor("Jordan R.")
            #expect(after.contains("Balance $"))
            #expect(after.contains("-$12.50"))

            try session.type("s")
            try await session.waitFor("Send money to anyone")
            try session.type("202 555 0111")
            try session.sendKeys("Tab")
            try session.type("150")
            try session.sendKeys("Enter")
            try await session.waitFor("need your password")
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
