import Foundation
import Testing

extension EndToEnd {
    /// Starts the real `skiff` binary in tmux over a session, preferences file and Home cache left unreadable (as a
    /// kill mid-write, a full disk or an editor could leave them): it starts on Login, says the session was set
    /// aside, and keeps each damaged file beside the new one.
    @Suite("Unreadable files end to end", .serialized)
    struct UnreadableFilesEndToEndTests {
        /// The damaged files of one start: session, preferences and cache database.
        struct Damage: Sendable {
            var name: String
            var session: Data
            var preferences: Data
            var cache: Data
        }

        static let damages = [
            Damage(
                name: "cut short",
                session: Data(#"{"expiresAt":"2031-01-01T00:00:00Z","token":"tok_"#.utf8),
                preferences: Data(#"{"countryCode":"+1","phone"#.utf8),
                cache: Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0x10, count: 300)
            ),
            Damage(
                name: "emptied or overwritten",
                session: Data(),
                preferences: Data(#"["not", "preferences"]"#.utf8),
                cache: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            ),
        ]

        @Test("skiff starts on Login over damaged files, says the session was set aside, and keeps every damaged file")
        func startsOverDamagedFiles() async throws {
            let skiff = try BuiltProduct.path("skiff")
            let dataDirectory = NSTemporaryDirectory() + "skiff-e2e-unreadable-\(UUID().uuidString)"
            let state = URL(fileURLWithPath: dataDirectory + "/state")
            let cache = URL(fileURLWithPath: dataDirectory + "/cache")
            defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
            for folder in [state, cache] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
            defer { session.kill() }
            try await session.waitFor("$")

            for (index, damage) in Self.damages.enumerated() {
                try damage.session.write(to: state.appendingPathComponent("session.json"))
                try damage.preferences.write(to: state.appendingPathComponent("preferences.json"))
                try damage.cache.write(to: cache.appendingPathComponent("cache.sqlite"))

                try session.typeLine("clear; \(skiff) --data-dir \(dataDirectory); echo EXIT=$?")
                let login = try await session.waitFor("Log in with your phone number", timeout: 60)
                #expect(login.contains("Your saved session could not be read and was set aside."), "\(damage.name):\n\(login)")
                try session.sendKeys("C-q")
                let exit = try await session.waitFor("EXIT=", timeout: 30)
                #expect(exit.contains("EXIT=0"), "\(damage.name):\n\(exit)")

                for (folder, name, bytes) in [
                    (state, "session.json", damage.session), (state, "preferences.json", damage.preferences), (cache, "cache.sqlite", damage.cache),
                ] {
                    let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(name + ".corrupt-") }
                    #expect(kept.count == index + 1, "\(damage.name): \(name) set aside as \(kept)")
                    let contents = try kept.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
                    #expect(contents.contains(bytes), "\(damage.name): the damaged \(name) was not kept as it was")
                }
                #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("session.json").path))
            }
            let log = try String(contentsOf: state.appendingPathComponent("skiff.log"), encoding: .utf8)
            for warning in [
                "The saved session was unreadable and set aside", "The preferences were unreadable and set aside",
                "The Home cache was unreadable and set aside",
            ] {
                #expect(log.components(separatedBy: warning).count - 1 == Self.damages.count, "\(warning):\n\(log)")
            }
        }
    }
}
