import Foundation
import Testing

extension EndToEnd {
    /// Runs the real `skiff-server` binary with options it must refuse before it opens anything.
    @Suite("skiff-server options")
    struct ServerCommandTests {
        @Test("skiff-server refuses a bcrypt cost below 10, a trusted proxy that is not an IP address, the SMS outbox off loopback unless asked, and two passwords for seed", arguments: [
            (["serve", "--bcrypt-cost", "4"], "--bcrypt-cost must be 10 to 31"),
            (["serve", "--bcrypt-cost", "9"], "--bcrypt-cost must be 10 to 31"),
            (["seed-demo", "--bcrypt-cost", "4"], "--bcrypt-cost must be 10 to 31"),
            (["serve", "--trusted-proxy", "proxy.example"], "--trusted-proxy needs an IP address"),
            (["serve", "--host", "0.0.0.0", "--insecure-http"], "Give --sms-outbox-off-loopback to use it there anyway"),
            // Issue 45: every reason a start is refused, not only the first; the operator's footguns.
            (["serve", "--host", "0.0.0.0", "--insecure-http"], "This server is refused for 2 reasons:"),
            (["serve", "--host", "0.0.0.0", "--insecure-http"], "--card-network simulated approves any card number"),
            (["serve", "--metrics-port", "0", "--metrics-host", "0.0.0.0"], "Give --metrics-off-loopback to serve them there anyway"),
            (["serve", "--card-network", "stripe"], "--card-network stripe needs --stripe-publishable-key and --stripe-secret-key-file."),
            (["serve", "--card-network", "visa"], "--card-network needs simulated or stripe"),
            (["serve", "--top-up-limit-per-card", "5"], "--top-up-limit-per-card needs COUNT,CENTS"),
            (["seed", "--phone", "2025550111", "--password", "given-once", "--password-file", "/nonexistent"],
             "Give the password once: --password or --password-file."),
        ])
        func refusedOptions(arguments: [String], message: String) async throws {
            let directory = NSTemporaryDirectory() + "skiff-server-options-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try await ProgramRun.run("skiff-server", arguments + ["--database", directory + "/skiff.sqlite"])
            #expect(result.status == 64)
            #expect(result.errors.contains(message))
            #expect(!FileManager.default.fileExists(atPath: directory + "/skiff.sqlite"))
        }

        @Test("a PostgreSQL password in --database on the command line is warned of (ps shows it); the same URL in SKIFF_DATABASE_URL is not")
        func passwordOnCommandLine() async throws {
            let url = "postgres://skiff:not-for-ps@127.0.0.1:1/skiff"
            let given = try await ProgramRun.run("skiff-server", ["migrate", "--database", url])
            #expect(given.status != 0, "nothing listens on port 1")
            #expect(given.errors.contains("--database holds a password on the command line"), "\(given.errors)")
            var environment = ProcessInfo.processInfo.environment
            environment["SKIFF_DATABASE_URL"] = url
            let quiet = try await ProgramRun.run("skiff-server", ["migrate"], environment: environment)
            #expect(!quiet.errors.contains("--database holds a password"), "\(quiet.errors)")
        }

        @Test("skiff-server seed without a password gives the new user a generated one and prints it once")
        func seedPrintsGeneratedPassword() async throws {
            let directory = NSTemporaryDirectory() + "skiff-server-seed-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            func seed() async throws -> String {
                let result = try await ProgramRun.run("skiff-server", [
                    "seed", "--phone", "2025550111", "--transactions", "1", "--bcrypt-cost", "10",
                    "--database", directory + "/skiff.sqlite", "--sms-outbox", directory + "/sms-outbox.jsonl",
                ])
                #expect(result.status == 0)
                return result.output
            }
            let first = try await seed()
            let line = try #require(first.split(separator: "\n").first { $0.hasPrefix("Its password (generated, shown only now): ") })
            #expect(line.count > "Its password (generated, shown only now): ".count + 20)
            #expect(!first.contains("sail-away-2026"))
            #expect(!(try await seed()).contains("Its password"))
        }

        @Test("skiff-server seed writes through the ledger: it prints the balance its history adds up to, and ledger-check passes")
        func seedThenLedgerCheck() async throws {
            let directory = NSTemporaryDirectory() + "skiff-server-seed-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let files = ["--database", directory + "/skiff.sqlite", "--sms-outbox", directory + "/sms-outbox.jsonl"]
            let seeded = try await ProgramRun.run("skiff-server", [
                "seed", "--phone", "2025550111", "--password", "load-test-password", "--transactions", "5000", "--bcrypt-cost", "10",
            ] + files)
            #expect(seeded.status == 0, "\(seeded.errors)")
            let line = try #require(seeded.output.split(separator: "\n").first { $0.hasPrefix("Created user ") }, "\(seeded.output)")
            #expect(line.contains("; added 5000 transactions in ") && line.contains("; balance $"), "\(line)")
            let check = try await ProgramRun.run("skiff-server", ["ledger-check"] + files)
            #expect(check.status == 0)
            #expect(check.output == "ledger ok balanceSum=0 accountsOffPostings=0 unbalancedTransfers=0 negativeWallets=0\n")
        }
    }
}
