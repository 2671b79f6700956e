import Foundation
import Testing

extension EndToEnd {
    /// Runs the real `skiff-server` and `skiff` binaries (no terminal needed) for what they refuse before starting,
    /// what `serve` seeds, and what the app logs about `--server`.
    @Suite("Transport end to end", .serialized)
    struct TransportEndToEndTests {
        let server: String
        let skiff: String
        let folder: URL

        init() throws {
            server = try BuiltProduct.path("skiff-server")
            skiff = try BuiltProduct.path("skiff")
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-transport-e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        /// What a finished run left: its exit status and both outputs.
        struct Outcome {
            var status: Int32
            var output: String
            var errors: String
        }

        /// Starts `executable` with its outputs in files under `folder`, standard input empty.
        private func launch(_ executable: String, _ arguments: [String], name: String) throws -> (Process, URL, URL) {
            let output = folder.appendingPathComponent("\(name).out")
            let errors = folder.appendingPathComponent("\(name).err")
            try Data().write(to: output)
            try Data().write(to: errors)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            return (process, output, errors)
        }

        /// Runs `executable` to its end, killing it after `timeout`.
        private func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> Outcome {
            let name = UUID().uuidString
            let (process, output, errors) = try launch(executable, arguments, name: name)
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return Outcome(
                status: process.terminationStatus,
                output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                errors: (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            )
        }

        /// Runs `serve` on a free loopback port until it says it listens, then stops it with SIGTERM; what it logged.
        @discardableResult
        private func serveUntilListening(_ arguments: [String]) async throws -> String {
            let (process, output, errors) = try launch(server, ["serve", "--port", "0"] + arguments, name: "serve-\(UUID().uuidString)")
            let deadline = ContinuousClock.now + .seconds(60)
            var log = ""
            while process.isRunning, ContinuousClock.now < deadline, !log.contains("skiff-server listening") {
                try await Task.sleep(for: .milliseconds(50))
                log = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "") + ((try? String(contentsOf: output, encoding: .utf8)) ?? "")
            }
            let listened = process.isRunning
            if listened { process.terminate() }
            process.waitUntilExit()
            #expect(log.contains("skiff-server listening"), "serve did not start: \(log)")
            if listened {
                log = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "") + ((try? String(contentsOf: output, encoding: .utf8)) ?? "")
                // SIGTERM is how an operator stops it: a clean stop, not an error.
                #expect(process.terminationStatus == 0 && !log.contains("Error: "), "SIGTERM: exit \(process.terminationStatus), \(log)")
            }
            return log
        }

        private func storage(_ name: String) -> [String] {
            ["--database", folder.appendingPathComponent("\(name).sqlite").path,
             "--sms-outbox", folder.appendingPathComponent("\(name).jsonl").path]
        }

        @Test("serve refuses plain HTTP and --demo off loopback, and half a TLS pair, saying what to do, before opening anything")
        func serveRefusals() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let cases: [([String], String)] = [
                (["--host", "0.0.0.0"], "Give --tls-cert and --tls-key to serve HTTPS, or --insecure-http"),
                (["--host", "0.0.0.0", "--insecure-http", "--demo"], "Leave out --demo, or listen on 127.0.0.1."),
                (["--tls-cert", "server.pem"], "--tls-cert and --tls-key go together"),
                (["--tls-key", "server-key.pem"], "--tls-cert and --tls-key go together"),
            ]
            for (arguments, message) in cases {
                let outcome = try await run(server, ["serve", "--port", "0"] + arguments + storage("refused"))
                #expect(outcome.status == 64, "\(arguments): \(outcome.errors)")
                #expect(outcome.errors.contains(message), "\(arguments): \(outcome.errors)")
            }
            let missing = folder.appendingPathComponent("missing.pem").path
            let unreadable = try await run(server, ["serve", "--port", "0", "--tls-cert", missing, "--tls-key", missing] + storage("refused"))
            #expect(unreadable.status != 0)
            #expect(unreadable.errors.contains("The TLS certificate \(missing) cannot be read"), "\(unreadable.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refused.sqlite").path))
        }

        @Test("serve seeds no account unless --demo")
        func demoIsOptIn() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            try await serveUntilListening(storage("plain"))
            let plain = try await run(server, ["seed-demo"] + storage("plain"))
            #expect(plain.output.contains("Seeded the demo account"), "\(plain.output)\(plain.errors)")

            try await serveUntilListening(["--demo"] + storage("demo"))
            let demo = try await run(server, ["seed-demo"] + storage("demo"))
            #expect(demo.output.contains("The demo account exists already."), "\(demo.output)\(demo.errors)")
        }

        @Test("serve --no-migrate refuses a database that lacks migrations, saying to run migrate; after migrate it starts")
        func noMigrate() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let refused = try await run(server, ["serve", "--port", "0", "--no-migrate"] + storage("explicit"))
            #expect(refused.status != 0)
            #expect(refused.errors.contains("and --no-migrate forbids applying them here. Run `skiff-server migrate`"), "\(refused.errors)")

            let migrated = try await run(server, ["migrate"] + storage("explicit"))
            #expect(migrated.status == 0, "\(migrated.errors)")
            #expect(migrated.output.contains("Applied ") && migrated.output.contains("base, code-limits, "), "\(migrated.output)")
            let again = try await run(server, ["migrate"] + storage("explicit"))
            #expect(again.output.contains("The database was current already."), "\(again.output)\(again.errors)")
            try await serveUntilListening(["--no-migrate"] + storage("explicit"))
        }

        @Test("serve --log-format json writes one JSON object a line")
        func jsonLogs() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let log = try await serveUntilListening(["--log-format", "json"] + storage("json"))
            let lines = log.split(separator: "\n")
            #expect(!lines.isEmpty)
            for line in lines {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["message"] is String && object?["level"] is String && object?["time"] is String, "\(line)")
            }
            #expect(lines.contains { $0.contains(#""message":"skiff-server listening""#) }, "\(log)")
        }

        @Test("skiff --version and skiff-server --version print the release and the commit this checkout is at")
        func versions() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let head = try await run("/usr/bin/git", ["-C", root.path, "rev-parse", "HEAD"]).output.prefix(12)
            #expect(head.count == 12)
            for (program, path) in [("skiff", skiff), ("skiff-server", server)] {
                let outcome = try await run(path, ["--version"])
                #expect(outcome.status == 0)
                #expect(outcome.output == "\(program) 0.1.0 (commit \(head))\n", "\(outcome.output)\(outcome.errors)")
            }
        }

        @Test("The commit is read from a checkout's files: a branch, packed refs, a detached HEAD, a worktree; unknown without one")
        func commitReading() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let generator = try BuiltProduct.path("BuildInfoGenerator-tool")
            let hash = { (digit: String) in String(repeating: digit, count: 40) }
            func write(_ text: String, _ path: String) throws {
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            try write("ref: refs/heads/main\n", "branch/.git/HEAD")
            try write(hash("a") + "\n", "branch/.git/refs/heads/main")
            try write("ref: refs/heads/main\n", "packed/.git/HEAD")
            try write("# pack-refs with: peeled\n\(hash("b")) refs/heads/main\n", "packed/.git/packed-refs")
            try write(hash("c") + "\n", "detached/.git/HEAD")
            try write("gitdir: \(folder.path)/branch/.git/worktrees/side\n", "worktree/.git")
            try write("ref: refs/heads/side\n", "branch/.git/worktrees/side/HEAD")
            try write("../..\n", "branch/.git/worktrees/side/commondir")
            try write(hash("d") + "\n", "branch/.git/refs/heads/side")
            let cases = [("branch", "aaaaaaaaaaaa"), ("packed", "bbbbbbbbbbbb"), ("detached", "cccccccccccc"), ("worktree", "dddddddddddd"), ("none", "unknown")]
            for (checkout, commit) in cases {
                let output = folder.appendingPathComponent("\(checkout).swift")
                let outcome = try await run(generator, ["--git", folder.appendingPathComponent("\(checkout)/.git").path, "--output", output.path])
                #expect(outcome.status == 0, "\(outcome.errors)")
                let source = try String(contentsOf: output, encoding: .utf8)
                #expect(source.contains("static let commit = \"\(commit)\""), "\(checkout): \(source)")
            }
        }

        @Test("skiff refuses a plain http:// --server off this machine before the terminal starts, without its password")
        func appRefusesPlaintext() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let data = folder.appendingPathComponent("data").path
            let outcome = try await run(skiff, ["--data-dir", data, "--server", "http://alex:hunter2@wallet.example.com:8080"])
            #expect(outcome.status == 64)
            #expect(outcome.errors.contains("--server http://wallet.example.com:8080 is not on this machine"), "\(outcome.errors)")
            #expect(outcome.errors.contains("Use https://"))
            #expect(!outcome.errors.contains("hunter2") && !outcome.output.contains("hunter2"))
            #expect(!FileManager.default.fileExists(atPath: data))
        }

        @Test("skiff logs its --server without user information")
        func appLogsWithoutUserInformation() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let data = folder.appendingPathComponent("data")
            // Without a terminal the app stops after logging where it would connect.
            _ = try await run(skiff, ["--data-dir", data.path, "--server", "https://alex:hunter2@127.0.0.1:9"])
            let log = try String(contentsOf: data.appendingPathComponent("state/skiff.log"), encoding: .utf8)
            #expect(log.contains("server=https://127.0.0.1:9"), "\(log)")
            #expect(!log.contains("hunter2") && !log.contains("alex"))
        }
    }
}
