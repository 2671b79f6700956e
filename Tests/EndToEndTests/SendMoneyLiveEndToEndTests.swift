import Foundation
import Testing

extension EndToEnd {
    /// Issue 42, points 9 and 11, across processes: Send money open in one real `skiff` while another sends it money
    /// through one real `skiff-server`, then the server gone.
    @Suite("Send money with the server live and gone, end to end", .serialized)
    struct SendMoneyLiveEndToEndTests {
        let skiff: String
        let skiffServer: String
        let directory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            skiffServer = try BuiltProduct.path("skiff-server")
            directory = NSTemporaryDirectory() + "skiff-e2e-send-live-\(UUID().uuidString)"
        }

        private func serverProcess(_ arguments: [String]) -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: skiffServer)
            process.arguments = arguments + [
                "--bcrypt-cost", "10", "--database", directory + "/server/skiff.sqlite",
                "--sms-outbox", directory + "/server/sms-outbox.jsonl",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }

        private func serverCommand(_ arguments: [String]) async throws {
            let process = serverProcess(arguments)
            try process.run()
            while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            #expect(process.terminationStatus == 0, "skiff-server \(arguments.first ?? "")")
        }

        private func freePort() throws -> Int {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
                }
            }
            guard bound else { throw TmuxError(description: "no free port on 127.0.0.1") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        /// `skiff` on `server` in a tmux session of its own, signed in.
        private func wallet(_ name: String, server: String, phone: String, password: String) async throws -> TmuxSession {
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            try await session.waitFor("$")
            try session.typeLine("clear; \(skiff) --server \(server) --data-dir \(directory)/\(name); echo EXIT=$?")
            try await session.waitFor("Log in with your phone number", timeout: 60)
            try session.type(phone)
            try session.sendKeys("Tab")
            try session.type(password)
            try session.sendKeys("Enter")
            try await session.waitFor("Balance $", timeout: 60)
            return session
        }

        @Test("Jordan's Send money follows the $12.50 Alex sends with no key pressed; with the server gone, y says nothing was sent")
        func balanceFollowsAndServerGone() async throws {
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createDirectory(
                atPath: directory + "/server", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
            try await serverCommand(["seed-demo"])
            try await serverCommand([
                "seed", "--phone", "202 555 0111", "--name", "Jordan Rivera", "--password", "river-stones-8", "--transactions", "0",
            ])
            let port = try freePort()
            let server = serverProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)"])
            try server.run()
            defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
            let address = "http://127.0.0.1:\(port)"

            let jordan = try await wallet("jordan", server: address, phone: "2025550111", password: "river-stones-8")
            defer { jordan.kill() }
            let alex = try await wallet("alex", server: address, phone: "2025550143", password: "sail-away-2026")
            defer { alex.kill() }
            try jordan.type("s")
            try await jordan.waitFor("You have $1,000.00.")

            // Alex sends; nothing is typed in Jordan's pane until the balance has moved.
            try alex.type("s")
            try await alex.waitFor("Send money to anyone")
            try alex.type("202 555 0111")
            try alex.sendKeys("Tab")
            try alex.type("12.5")
            try alex.sendKeys("Enter")
            try await alex.waitFor("Send $12.50 to Jordan R.?")
            try alex.type("y")
            try await alex.waitFor("Sent $12.50 to Jordan R.")
            try await jordan.waitFor("You have $1,012.50.", timeout: 30)

            // Jordan's confirmation, then the server gone before y: no connection, so nothing went.
            try jordan.type("202 555 0143")
            try jordan.sendKeys("Tab")
            try jordan.type("5")
            try jordan.sendKeys("Enter")
            try await jordan.waitFor("Send $5.00 to Alex R.?")
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            // The app's kept connection to the server is closed by the kernel with it; a moment for the app to see that.
            try await Task.sleep(for: .milliseconds(300))
            try jordan.type("y")
            let refused = try await jordan.waitFor("nothing was sent", timeout: 30)
            #expect(refused.contains("Can't reach the server; nothing was sent."))
            #expect(!refused.contains("may or may not"))
        }
    }
}
