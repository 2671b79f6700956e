import Foundation
import Testing

extension EndToEnd {
    /// Sends signals to the real `skiff` (embedded server, throwaway data folder) in tmux on four screens: the
    /// terminal is given back after every signal that ends it, and a stop followed by `fg` brings the same screen back.
    ///
    /// `skiff` runs under `sh -c` started from an interactive bash: the `sh` records the terminal settings just
    /// before and just after `skiff` (bash itself puts its own settings back after a job dies of a signal, which
    /// would hide a terminal left raw), and a stop has to stop the whole job for bash to show its prompt.
    @Suite("Signals end to end", .serialized)
    struct SignalEndToEndTests {
        /// A screen the signals reach `skiff` on.
        enum Screen: String, CaseIterable, CustomTestStringConvertible {
            case login
            case home
            case addCardMidTyping
            case helpOverlay

            var testDescription: String {
                switch self {
                case .login: "Login"
                case .home: "Home"
                case .addCardMidTyping: "Add card, mid-typing"
                case .helpOverlay: "the help overlay over Home"
                }
            }
        }

        /// A signal that ends `skiff`, and the status the shell reports for it.
        struct Ending: CustomStringConvertible {
            let signal: Int32
            let name: String
            let status: Int32

            var description: String { name }
        }

        /// Terminations the app handles (it quits with 128 + the signal) and crashes it dies of (the shell reports
        /// 128 + the signal too): a Swift trap's SIGTRAP, a bad access's SIGSEGV and an abort's SIGABRT.
        static let endings = [
            Ending(signal: SIGTERM, name: "SIGTERM", status: 143),
            Ending(signal: SIGHUP, name: "SIGHUP", status: 129),
            Ending(signal: SIGINT, name: "SIGINT", status: 130),
            Ending(signal: SIGTRAP, name: "SIGTRAP", status: 133),
            Ending(signal: SIGSEGV, name: "SIGSEGV", status: 139),
            Ending(signal: SIGABRT, name: "SIGABRT", status: 134),
        ]

        let skiff: String
        let folder: String
        let dataDirectory: String

        init() throws {
            skiff = try BuiltProduct.path("skiff")
            folder = NSTemporaryDirectory() + "skiff-signals-e2e-\(UUID().uuidString)"
            dataDirectory = folder + "/data"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        @Test("SIGTSTP stops the job and fg redraws the screen whole; SIGTERM, SIGHUP, SIGINT, SIGTRAP, SIGSEGV and SIGABRT each give the terminal back", arguments: Screen.allCases)
        func signals(on screen: Screen) async throws {
            // The crash report is kept short: symbolication alone takes seconds per crash.
            let session = try TmuxSession.shell(environment: [
                "LANG": "C.UTF-8",
                "SWIFT_BACKTRACE": "interactive=no,symbolicate=off,threads=crashed,registers=none,images=none",
            ])
            defer {
                session.kill()
                try? FileManager.default.removeItem(atPath: folder)
            }
            try await session.waitFor("$")
            for (index, ending) in Self.endings.enumerated() {
                let files = try launch(in: session, run: index)
                try await reach(screen, in: session)
                let pid = try skiffPID()
                try await stopAndContinue(pid, on: screen, in: session)
                #expect(kill(pid, ending.signal) == 0)
                try await expectTerminalGivenBack(after: ending, on: screen, files: files, in: session)
            }
        }

        /// Where one run's `sh` writes the terminal settings it saw before and after `skiff`.
        struct SettingsFiles {
            let before: String
            let after: String
            let afterReadable: String
        }

        /// Types the command that runs `skiff` under `sh`, which prints `EXIT=<status>` once the settings are saved.
        private func launch(in session: TmuxSession, run: Int) throws -> SettingsFiles {
            let files = SettingsFiles(
                before: folder + "/stty-\(run)-before", after: folder + "/stty-\(run)-after", afterReadable: folder + "/stty-\(run)-after-a"
            )
            let script = #"stty -g > "$1"; "$0" --data-dir "$2"; status=$?; stty -g > "$3"; stty -a > "$4"; echo EXIT=$status"#
            let arguments = [skiff, files.before, dataDirectory, files.after, files.afterReadable]
            try session.typeLine("clear; sh -c '\(script)' " + arguments.joined(separator: " "))
            return files
        }

        /// Waits for `skiff` to show `screen`, logging in with the demo account first where the screen needs it.
        private func reach(_ screen: Screen, in session: TmuxSession) async throws {
            let loginMarker = "Log in with your phone number"
            let homeMarker = "Balance $"
            let first = try await session.waitUntil("Login or Home shows", timeout: 60) {
                $0.contains(loginMarker) || $0.contains(homeMarker)
            }
            if screen == .login {
                #expect(first.contains(loginMarker))
                return
            }
            if first.contains(loginMarker) {
                try session.type("2025550143")
                try session.sendKeys("Tab")
                try session.type("sail-away-2026")
                try session.sendKeys("Enter")
                try await session.waitFor(homeMarker)
            }
            // Home's loads (summary, cards, page, spending) all in: a screen caught between two of them, still for a
            // moment under load, would change after `fg` and not match.
            try await session.waitUntil("Home has loaded", timeout: 60) { $0.contains("Spent $") && !$0.contains("Loading") }
            switch screen {
            case .login, .home:
                break
            case .addCardMidTyping:
                try session.type("a")
                try await session.waitFor("Card number")
                try session.type("42424242")
                try await session.waitFor("4242 4242")
            case .helpOverlay:
                try session.type("?")
                try await session.waitFor("suspend to the shell")
            }
        }

        /// Stops `skiff` as a shell's Ctrl-Z would, checks the shell has the terminal, then brings it back with `fg`.
        private func stopAndContinue(_ pid: Int32, on screen: Screen, in session: TmuxSession) async throws {
            let shown = try await settledScreen(in: session)
            let alternateScreen = try session.format("#{alternate_on}")
            let cursor = try session.format("#{cursor_flag}")
            #expect(alternateScreen == "1", "\(screen): the app draws on the alternate screen")

            #expect(kill(pid, SIGTSTP) == 0)
            let stopped = try await session.waitFor("Stopped", timeout: 10)
            #expect(stopped != shown, "\(screen): the shell shows while stopped")
            #expect(try session.format("#{alternate_on}") == "0", "\(screen): alternate screen left while stopped")
            #expect(try session.format("#{cursor_flag}") == "1", "\(screen): cursor visible while stopped")

            try session.typeLine("fg")
            try await session.waitUntil("\(screen): the screen from before the stop is back whole", timeout: 10) { $0 == shown }
            #expect(try session.format("#{alternate_on}") == alternateScreen)
            #expect(try session.format("#{cursor_flag}") == cursor)
        }

        /// After `ending` was sent: the status is the expected one, the settings are those from before the start,
        /// the alternate screen is left and the cursor shows.
        private func expectTerminalGivenBack(after ending: Ending, on screen: Screen, files: SettingsFiles, in session: TmuxSession) async throws {
            let ended = try await session.waitUntil("the shell prints the exit status", timeout: 30) { exitStatus(in: $0) != nil }
            #expect(exitStatus(in: ended) == ending.status, "\(screen), \(ending): exit line in\n\(ended)")
            #expect(try session.format("#{alternate_on}") == "0", "\(screen), \(ending): alternate screen left")
            #expect(try session.format("#{cursor_flag}") == "1", "\(screen), \(ending): cursor visible")
            let before = try String(contentsOfFile: files.before, encoding: .utf8)
            let after = try String(contentsOfFile: files.after, encoding: .utf8)
            #expect(!before.isEmpty)
            #expect(after == before, "\(screen), \(ending): terminal settings after differ from before")
            let modes = try #require(TerminalModes(sttyOutput: try String(contentsOfFile: files.afterReadable, encoding: .utf8)))
            #expect(modes.canonical && modes.echo, "\(screen), \(ending): canonical mode and echo back")
            try await session.waitUntil("the shell prompts again") { pane in
                pane.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) == "$"
            }
        }

        /// The status in the pane's `EXIT=<digits>` line (the command line echoed by the shell shows `EXIT=$status`).
        private func exitStatus(in pane: String) -> Int32? {
            guard let line = pane.split(separator: "\n").first(where: { $0.hasPrefix("EXIT=") }) else { return nil }
            return Int32(line.dropFirst("EXIT=".count))
        }

        /// The pane once two captures 150 ms apart agree (the first frames after a key may still be arriving).
        private func settledScreen(in session: TmuxSession) async throws -> String {
            var last = try session.capture()
            for _ in 0..<40 {
                try await Task.sleep(nanoseconds: 150_000_000)
                let next = try session.capture()
                if next == last { return next }
                last = next
            }
            throw TmuxError(description: "The screen kept changing:\n\(last)")
        }

        /// The process id of this test's `skiff` (its first argument is the binary, and it names this data folder).
        private func skiffPID() throws -> Int32 {
            for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
                guard let pid = Int32(entry), let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                if arguments.first == skiff, arguments.contains(dataDirectory) {
                    return pid
                }
            }
            throw TmuxError(description: "No running \(skiff) with --data-dir \(dataDirectory)")
        }
    }
}
