import Foundation
import Testing

extension EndToEnd {
    /// Drives the real `skiff` binary in tmux through Add card and Top up: on the built-in server's simulated card
    /// network, and on a real `skiff-server` talking to localstripe (a fake of Stripe's API) when
    /// `SKIFF_TEST_LOCALSTRIPE_URL` names one. The card is tokenized at the network, a card that asks for 3-D Secure
    /// shows where to confirm and the wallet waits for it, a decline is said in words, and Home's balance moves once.
    @Suite("Top up end to end", .serialized)
    struct TopUpEndToEndTests {
        let skiff: String
        let directory: String
        static let localstripe = ProcessInfo.processInfo.environment["SKIFF_TEST_LOCALSTRIPE_URL"]

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            directory = NSTemporaryDirectory() + "skiff-e2e-topup-\(UUID().uuidString)"
        }

        /// The balance Home shows, in cents.
        private func balance(in screen: String) -> Int? {
            guard let match = screen.firstMatch(of: /Balance \$([0-9,]+)\.([0-9]{2})/),
                  let units = Int(match.1.replacingOccurrences(of: ",", with: "")), let cents = Int(match.2)
            else { return nil }
            return units * 100 + cents
        }

        /// Add card from Home with `number` (expiry 04/29, CVC 123), confirmed; answers the screen once `expect` shows.
        @discardableResult
        private func addCard(_ number: String, on session: TmuxSession, expect: String) async throws -> String {
            try session.type("a")
            try await session.waitFor("Card number")
            try session.type(number)
            try session.sendKeys("Tab", "Tab")
            try session.type("0429")
            try session.sendKeys("Tab")
            try session.type("123")
            try session.sendKeys("Enter")
            try await session.waitFor("to your wallet?")
            try session.sendKeys("Enter")
            return try await session.waitFor(expect)
        }

        /// Top up from the card at `row` of the list (0 first) the amount `typed`, confirmed; answers the screen once
        /// `expect` shows.
        private func topUp(row: Int, _ typed: String, on session: TmuxSession, expect: String) async throws -> String {
            try session.type("t")
            try await session.waitFor("Choose the card to add money from")
            for _ in 0..<row { try session.sendKeys("Down") }
            try session.sendKeys("Enter")
            try await session.waitFor("How much would you like to add?")
            try session.type(typed)
            try session.sendKeys("Enter")
            try await session.waitFor("to your wallet?")
            try session.sendKeys("Enter")
            return try await session.waitFor(expect, timeout: 30)
        }

        /// The address the bank screen says to open, put together from the lines it wraps over.
        private func confirmationAddress(in screen: String) throws -> String {
            let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let start = lines.firstIndex(where: { $0.hasSuffix("Open this address to confirm it:") }),
                  let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("The money is added") })
            else { throw TmuxError(description: "no address on the screen:\n\(screen)") }
            return lines[(start + 1)..<end].joined()
        }

        /// `curl` with `arguments`: what it printed.
        private func curl(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "--max-time", "10"] + arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        @Test("simulated network: a card added by its token, $250 at once, 3-D Secure confirmed at its address, declines in words; no number in the log")
        func simulated() async throws {
            let session = try await TmuxSession.walletShell()
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: directory)
            }
            try await session.startWallet("\(skiff) --data-dir \(directory)")
            try await session.logIn()

            try session.type("t")
            try await session.waitFor("You have no cards added")
            try session.sendKeys("Escape")
            try await session.waitFor("Balance $")

            let declined = try await addCard("4000000000000002", on: session, expect: "declined the card")
            #expect(declined.contains("Use another card"), "\(declined)")
            try session.sendKeys("Escape", "Escape")
            try await session.waitFor("Balance $")

            let home = try await addCard("4242424242424242", on: session, expect: "Visa •••• 4242 added.")
            let before = try #require(balance(in: home), "\(home)")
            let receipt = try await topUp(row: 0, "250", on: session, expect: "Added $250.00 from Visa •••• 4242.")
            #expect(receipt.contains("Reference SKF-"))
            try session.sendKeys("Enter")
            #expect(balance(in: try await session.waitFor("+$250.00")) == before + 25_000)

            try await addCard("4000002760003184", on: session, expect: "Visa •••• 3184 added.")
            let bank = try await topUp(row: 1, "40", on: session, expect: "Open this address to confirm it:")
            let words = bank.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("Your card's bank asks you to confirm the payment of $40.00 from Visa •••• 3184."), "\(bank)")
            let address = try confirmationAddress(in: bank)
            #expect(address.hasPrefix("http://127.0.0.1:") && address.hasSuffix("/_authenticate"), "\(address)")
            _ = try curl(["-X", "POST", address, "-d", "success=true"])
            try await session.waitFor("Added $40.00 from Visa •••• 3184.")
            try session.sendKeys("Enter")
            #expect(balance(in: try await session.waitFor("+$40.00")) == before + 29_000)

            try session.type("q")
            try await session.waitFor("EXIT=", timeout: 30)
            let log = try String(contentsOfFile: directory + "/state/skiff.log", encoding: .utf8)
            for number in ["4242424242424242", "4000002760003184", "4000000000000002"] {
                #expect(!log.contains(number), "the log holds no card number")
            }
        }

        @Test(
            "localstripe: a card tokenized at Stripe's API, $250 charged, 3-D Secure confirmed at the network, a decline at charge in words",
            .enabled(if: localstripe != nil, "set SKIFF_TEST_LOCALSTRIPE_URL to a running localstripe")
        )
        func stripe() async throws {
            let stripe = try #require(Self.localstripe)
            let server = try TestServer(directory: directory)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let secret = directory + "/server/stripe-secret"
            let webhookSecret = directory + "/server/stripe-webhook"
            let hookSecret = "whsec_e2e_\(UUID().uuidString.prefix(8))"
            for (path, text) in [(secret, "sk_test_e2e"), (webhookSecret, hookSecret)] {
                _ = FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600])
            }
            try await server.command(["seed-demo"])
            let (address, process) = try server.serve([
                "--card-network", "stripe", "--stripe-api-url", stripe, "--stripe-publishable-key", "pk_test_e2e",
                "--stripe-secret-key-file", secret, "--stripe-webhook-secret-file", webhookSecret,
            ])
            defer { process.terminate() }
            _ = try curl(["\(stripe)/_config/webhooks/e2e-\(UUID().uuidString.prefix(8))", "-d", "url=\(address)/v1/webhooks/stripe", "-d", "secret=\(hookSecret)"])

            let session = try await TmuxSession.walletShell()
            defer { session.kill() }
            try await session.startWallet("\(skiff) --server \(address) --data-dir \(directory)/wallet")
            try await session.logIn()

            try await addCard("4242424242424242", on: session, expect: "Visa •••• 4242 added.")
            let before = try #require(balance(in: try await session.waitFor("Balance $")))
            _ = try await topUp(row: 0, "250", on: session, expect: "Added $250.00 from Visa •••• 4242.")
            try session.sendKeys("Enter")
            #expect(balance(in: try await session.waitFor("+$250.00")) == before + 25_000)

            try await addCard("4000000000003220", on: session, expect: "Visa •••• 3220 added.")
            let bank = try await topUp(row: 1, "40", on: session, expect: "Open this address to confirm it:")
            let intent = try #require(confirmationAddress(in: bank).firstMatch(of: /payment_intents\/(pi_[A-Za-z0-9]+)\//).map { String($0.1) })
            let answer = try curl(["-u", "sk_test_e2e:", "\(stripe)/v1/payment_intents/\(intent)"])
            let clientSecret = try #require(answer.firstMatch(of: /"client_secret": "([^"]+)"/).map { String($0.1) }, "\(answer)")
            _ = try curl([
                "\(stripe)/v1/payment_intents/\(intent)/_authenticate", "-d", "key=pk_test_e2e", "-d", "client_secret=\(clientSecret)",
                "-d", "success=true",
            ])
            try await session.waitFor("Added $40.00 from Visa •••• 3220.", timeout: 30)
            try session.sendKeys("Enter")
            #expect(balance(in: try await session.waitFor("+$40.00")) == before + 29_000)

            try await addCard("4000000000000341", on: session, expect: "Visa •••• 0341 added.")
            let refused = try await topUp(row: 2, "10", on: session, expect: "declined")
            #expect(refused.contains("How much would you like to add?"), "back at the amount: \(refused)")
            try session.sendKeys("Escape", "Escape")
            #expect(balance(in: try await session.waitFor("Balance $")) == before + 29_000, "a decline adds nothing")
        }
    }
}
