import Foundation
import SkiffCore
import Testing

extension EndToEnd {
    /// Kills the real `skiff` (embedded server, one data folder kept across rounds) with SIGKILL at seeded random
    /// moments while it writes its own files — the preferences on every `s`, the Home cache on every reload, the
    /// session and the last login at each login, the session's removal at each logout — and starts it again each time.
    /// After every kill, the session and preferences files are absent or whole JSON; after every start, it reaches Login
    /// or Home without setting any file aside, and the temporary files of the killed run are gone.
    ///
    /// CI runs `ciRounds` rounds of seed `ciSeed`; `SKIFF_APP_KILL_ROUNDS=200` runs more, `SKIFF_APP_KILL_SEED=N`
    /// another seed. A failure names its seed and round.
    @Suite("Killed app end to end", .serialized)
    struct KilledAppEndToEndTests {
        static let ciRounds = 8
        static let ciSeed: UInt64 = 1

        /// What a round does on Home until it is killed (half the time, three in ten, two in ten).
        enum Action {
            /// Shows or hides the Spending panel: the preferences file is written.
            case toggleSpending
            /// Reloads Home: the Home cache is written.
            case reload
            /// Logs out (the session file is removed) and in again (session and last login written).
            case logOutAndIn
        }

        /// What the rounds saw, for the figures in docs/testing.md.
        struct Tally {
            var rounds = 0
            var actions = 0
            /// Rounds whose kill left a temporary file behind: killed between creating a file and renaming it.
            var killsMidWrite = 0
            var startsOnHome = 0
        }

        @Test("skiff killed at any moment while it writes its session, preferences and cache starts cleanly every time")
        func killedWhileWriting() async throws {
            let environment = ProcessInfo.processInfo.environment
            let rounds = environment["SKIFF_APP_KILL_ROUNDS"].flatMap(Int.init) ?? Self.ciRounds
            let seed = environment["SKIFF_APP_KILL_SEED"].flatMap(UInt64.init) ?? Self.ciSeed
            print("app kills: seed \(seed), \(rounds) rounds (replay: SKIFF_APP_KILL_SEED=\(seed) SKIFF_APP_KILL_ROUNDS=\(rounds))")
            let skiff = try BuiltProduct.path("skiff")
            let folder = NSTemporaryDirectory() + "skiff-kill-e2e-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var random = SplitMix64(seed: seed)
            var tally = Tally()
            var seenSetAside: Set<String> = []

            for round in 0..<rounds {
                let context = "seed \(seed), round \(round)"
                let session = try TmuxSession(
                    command: "exec \(skiff) --data-dir \(folder)",
                    environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"]
                )
                defer { session.kill() }
                let start = try await session.waitUntil("Login or Home shows (\(context))", timeout: 60) {
                    $0.contains("Log in with your phone number") || $0.contains("Balance $")
                }
                #expect(!start.contains("could not be read"), "\(context):\n\(start)")
                let pid = try session.panePID()
                let newlySetAside = setAside(in: folder).subtracting(seenSetAside)
                #expect(newlySetAside.isEmpty, "\(context): files set aside: \(newlySetAside.sorted())")
                seenSetAside.formUnion(newlySetAside)
                let strays = temporaryFiles(in: folder).filter { $0.pid != pid }
                #expect(strays.isEmpty, "\(context): the killed run's temporary files are still there: \(strays)")

                if start.contains("Balance $") {
                    tally.startsOnHome += 1
                } else {
                    try logIn(session)
                    try await session.waitFor("Balance $", timeout: 30)
                }
                let killAfter = Double.random(in: 0..<1.5, using: &random)
                let began = Date()
                while Date().timeIntervalSince(began) < killAfter {
                    let roll = Int.random(in: 0..<10, using: &random)
                    switch roll < 5 ? Action.toggleSpending : roll < 8 ? .reload : .logOutAndIn {
                    case .toggleSpending: try session.type("g")
                    case .reload: try session.type("r")
                    case .logOutAndIn:
                        try session.type("L")
                        try await session.waitFor("Log in with your phone number", timeout: 30)
                        try logIn(session)
                        try await session.waitFor("Balance $", timeout: 30)
                    }
                    tally.actions += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0..<60, using: &random)))
                }
                // The last write is aimed at: the kill follows a key that writes the preferences by up to 20 ms.
                try session.type("g")
                try await Task.sleep(for: .microseconds(Int.random(in: 0..<20_000, using: &random)))
                #expect(kill(pid, SIGKILL) == 0, "\(context)")
                try await session.waitUntil("skiff has died (\(context))") { _ in (try? session.format("#{pane_dead}")) == "1" }
                if !temporaryFiles(in: folder).isEmpty { tally.killsMidWrite += 1 }
                for file in ["state/session.json", "state/preferences.json"] {
                    guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { continue }
                    #expect(
                        (try? JSONSerialization.jsonObject(with: data)) is [String: Any],
                        "\(context): \(file) is not whole after the kill: \(String(decoding: data, as: UTF8.self))"
                    )
                }
                tally.rounds += 1
            }
            print("app kills: \(tally.rounds) rounds, \(tally.actions) writing actions, \(tally.killsMidWrite) kills mid-write "
                + "(a temporary file left), \(tally.startsOnHome) starts on Home from the saved session")
        }

        /// Types the demo account's number (over whatever Login prefilled) and password, and presses Enter.
        /// Logs in as a person would: a remembered number leaves the cursor in Password, else the number first.
        private func logIn(_ session: TmuxSession) throws {
            if try !session.capture().contains(/Phone number +\S/) {
                try session.sendKeys("End", "C-u")
                try session.type("2025550143")
                try session.sendKeys("Tab")
            }
            try session.type("sail-away-2026")
            try session.sendKeys("Enter")
        }

        /// Every file under `folder` that a store set aside as unreadable.
        private func setAside(in folder: String) -> Set<String> {
            Set(files(in: folder).filter { $0.contains(".corrupt-") })
        }

        /// The temporary files of the app's own writes (`.<name>.<pid>.<uuid>.tmp`), with the pid that wrote them.
        private func temporaryFiles(in folder: String) -> [(name: String, pid: Int32)] {
            files(in: folder).compactMap { path in
                let name = (path as NSString).lastPathComponent
                guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
                let parts = name.split(separator: ".")
                guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]) else { return (name, -1) }
                return (name, pid)
            }
        }

        private func files(in folder: String) -> [String] {
            (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        }
    }
}
