import Foundation
import Testing

extension EndToEnd {
    /// Issue 42, as a new user tripped on it: the real `skiff` with its embedded server, one data folder across runs.
    @Suite("New user end to end", .serialized)
    struct NewUserEndToEndTests {
        let skiff: String
        let folder: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            folder = NSTemporaryDirectory() + "skiff-new-user-e2e-\(UUID().uuidString)"
        }

        /// Point 6: a password typed at once on the second start went into the remembered phone number. Point 5: `?`
        /// on Lock went into the password and the unlock failed.
        @Test("second start: the password typed at once logs in; on Lock, ? shows the keys and the password still unlocks")
        func rememberedNumberAndHelpOnLock() async throws {
            let shell = try await TmuxSession.walletShell()
            defer {
                shell.kill()
                try? FileManager.default.removeItem(atPath: folder)
            }
            let start = "\(skiff) --lock-after 4 --data-dir \(folder)"
            try await shell.startWallet(start)
            try await shell.logIn()
            try shell.type("L")
            try await shell.waitFor("Log in with your phone number", timeout: 30)
            try shell.sendKeys("C-q")
            try await shell.waitFor("EXIT=0", timeout: 30)

            try await shell.startWallet(start)
            #expect(try shell.capture().contains("202 555 0143"))
            // Nothing but the password, as a person does once the number is filled in.
            try shell.type("sail-away-2026")
            try shell.sendKeys("Enter")
            try await shell.waitFor("Balance $", timeout: 30)

            try await shell.waitFor("Skiff locked itself after a while without a key", timeout: 30)
            try shell.type("?")
            try await shell.waitFor("then ?: type a question mark", timeout: 10)
            try shell.sendKeys("Escape")
            try await shell.waitForAbsence("then ?: type a question mark", timeout: 10)
            try shell.type("sail-away-2026")
            try shell.sendKeys("Enter")
            let home = try await shell.waitFor("Balance $", timeout: 30)
            #expect(!home.contains("not right"))
            try shell.sendKeys("C-c")
            try await shell.waitFor("EXIT=", timeout: 30)
        }
    }
}
