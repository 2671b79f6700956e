import Foundation
import SkiffCore
import Testing

extension EndToEnd {
    /// Issue 23, point 1, as it was reproduced: the real `skiff` with `--lock-after 3` in tmux, its embedded server
    /// and one data folder across two runs.
    @Suite("Lock end to end", .serialized)
    struct LockEndToEndTests {
        let skiff: String
        let folder: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            folder = NSTemporaryDirectory() + "skiff-lock-e2e-\(UUID().uuidString)"
        }

        /// The session as `skiff` saved it.
        private func savedSession() throws -> Session {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Session.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/state/session.json")))
        }

        /// The address of the built-in server of the newest run, from its log line.
        private func serverURL() throws -> String {
            let log = try String(contentsOfFile: folder + "/state/skiff.log", encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"The built-in server is listening url=(http://127\.0\.0\.1:\d+)"#)
            guard let found = regex.matches(in: log, range: NSRange(log.startIndex..., in: log)).last,
                  let range = Range(found.range(at: 1), in: log)
            else { throw TmuxError(description: "no listening line in skiff.log:\n\(log)") }
            return String(log[range])
        }

        /// What `GET /v1/me` answers `token` (status and problem type), with curl as a person would ask it.
        private func me(token: String) async throws -> (status: Int, type: String?) {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = [
                "curl", "-s", "-m", "10", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(token)",
                try serverURL() + "/v1/me",
            ]
            let output = Pipe()
            curl.standardOutput = output
            try curl.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let body = lines.dropLast().joined(separator: "\n")
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            return (Int(lines.last ?? "") ?? 0, json?["type"] as? String)
        }

        /// Waits until the server answers the saved token as locked (the app tells it just after drawing Lock).
        private func expectServerSaysLocked(_ context: String) async throws {
            let token = try savedSession().token
            var answer = try await me(token: token)
            for _ in 0..<50 where answer.status != 423 {
                try await Task.sleep(nanoseconds: 100_000_000)
                answer = try await me(token: token)
            }
            #expect(answer.status == 423, "\(context): /v1/me answered \(answer.status)")
            #expect(answer.type == "urn:skiff:problem:session-locked", "\(context)")
        }

        @Test("locked, then Ctrl-Z and Ctrl-C: the file and the server say locked, and the next start shows Lock, not Home")
        func lockOutlivesTheProcess() async throws {
            let shell = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer {
                shell.kill()
                try? FileManager.default.removeItem(atPath: folder)
            }
            try await shell.waitFor("$")
            let start = "clear; \(skiff) --lock-after 3 --data-dir \(folder); echo EXIT=$?"
            try shell.typeLine(start)
            try await shell.waitFor("Log in with your phone number", timeout: 60)
            try shell.type("2025550143")
            try shell.sendKeys("Tab")
            try shell.type("sail-away-2026")
            try shell.sendKeys("Enter")
            try await shell.waitFor("Balance $", timeout: 30)

            let locked = try await shell.waitFor("Skiff locked itself after a while without a key", timeout: 30)
            #expect(!locked.contains("Balance"))
            #expect(try savedSession().isLocked)
            try await expectServerSaysLocked("while the screen says Locked")

            try shell.sendKeys("C-z")
            try await shell.waitFor("Stopped", timeout: 10)
            #expect(try savedSession().isLocked, "stopped: the file still says locked")
            try shell.typeLine("fg")
            try await shell.waitFor("Skiff locked itself after a while without a key", timeout: 10)

            try shell.sendKeys("C-c")
            try await shell.waitFor("EXIT=", timeout: 30)
            #expect(try savedSession().isLocked, "after Ctrl-C the file still says locked")

            try shell.typeLine(start)
            let again = try await shell.waitFor("Skiff was locked when it last ran", timeout: 60)
            #expect(!again.contains("Balance"))
            #expect(again.contains("Locked"))
            try await expectServerSaysLocked("after a new start")

            try shell.type("sail-away-2026")
            try shell.sendKeys("Enter")
            try await shell.waitFor("Balance $", timeout: 30)
            #expect(try savedSession().isLocked == false)
            #expect(try await me(token: try savedSession().token).status == 200)
            try shell.sendKeys("C-c")
            try await shell.waitFor("EXIT=", timeout: 30)
        }
    }
}
