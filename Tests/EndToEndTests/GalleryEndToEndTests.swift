import Foundation
import Testing

/// Drives the real `skiff-gallery` binary in tmux, as a person would.
@Suite("Gallery end to end", .serialized)
struct GalleryEndToEndTests {
    let gallery: String
    let pidFile: String

    init() throws {
        gallery = try BuiltProduct.path("skiff-gallery")
        pidFile = NSTemporaryDirectory() + "skiff-gallery-\(UUID().uuidString).pid"
    }

    /// Starts a shell in tmux and runs the gallery in it; the shell prints `EXIT=<status>` when it ends.
    private func startGallery(trap: Bool = false) async throws -> TmuxSession {
        let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
        try await session.waitFor("$")
        let trapSetting = trap ? "SKIFF_GALLERY_TRAP=1 " : ""
        try session.typeLine("clear; sh -c 'echo $$ > \(pidFile); exec env \(trapSetting)\(gallery)'; echo EXIT=$?")
        try await session.waitFor("Enter open")
        return session
    }

    private func galleryPID() throws -> Int32 {
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw TmuxError(description: "no pid in \(pidFile)") }
        return pid
    }

    /// Waits for the exit line, then runs `stty -a` in the same pane and reads the modes.
    private func finish(_ session: TmuxSession, expectingStatus status: String) async throws -> TerminalModes? {
        let screen = try await session.waitFor("EXIT=", timeout: 30)
        #expect(screen.contains("EXIT=\(status)"), "exit status line in:\n\(screen)")
        try session.typeLine("clear; stty -a; echo STTY-$((40+2))")
        let stty = try await session.waitFor("STTY-42")
        try? FileManager.default.removeItem(atPath: pidFile)
        session.kill()
        return TerminalModes(sttyOutput: stty)
    }

    @Test("Tab moves focus, a pushed screen pops on Esc, a tiny terminal shows the guard, and q gives the terminal back")
    func navigationResizeAndQuit() async throws {
        let session = try await startGallery()
        defer { session.kill() }
        try session.sendKeys("Down", "Enter")
        try await session.waitFor("Card number")
        try session.type("Ada")
        try await session.waitFor("Raw value: Ada")
        try session.sendKeys("Tab")
        try session.type("4242424242424242")
        let typed = try await session.waitFor("4242 4242 4242 4242")
        #expect(typed.contains("Name         Ada"))
        #expect(typed.contains("Gallery › Text fields"))

        try session.sendKeys("Escape")
        let back = try await session.waitForAbsence("Card number")
        #expect(back.contains("Every TerminalUI view"))
        #expect(!back.contains("›"))

        try session.resize(width: 30, height: 8)
        try await session.waitFor("Terminal too small")
        try session.resize(width: 100, height: 30)
        let restored = try await session.waitFor("Every TerminalUI view")
        #expect(!restored.contains("Terminal too small"))

        try session.sendKeys("q")
        let modes = try #require(try await finish(session, expectingStatus: "0"))
        #expect(modes.canonical)
        #expect(modes.echo)
    }

    @Test("Ctrl-C quits with status 130 and gives the terminal back")
    func controlC() async throws {
        let session = try await startGallery()
        defer { session.kill() }
        try session.sendKeys("C-c")
        let modes = try #require(try await finish(session, expectingStatus: "130"))
        #expect(modes.canonical && modes.echo)
    }

    @Test("SIGTERM quits with status 143 and gives the terminal back")
    func terminate() async throws {
        let session = try await startGallery()
        defer { session.kill() }
        #expect(kill(try galleryPID(), SIGTERM) == 0)
        let modes = try #require(try await finish(session, expectingStatus: "143"))
        #expect(modes.canonical && modes.echo)
    }

    @Test("SIGHUP quits with status 129 and gives the terminal back")
    func hangUp() async throws {
        let session = try await startGallery()
        defer { session.kill() }
        #expect(kill(try galleryPID(), SIGHUP) == 0)
        let modes = try #require(try await finish(session, expectingStatus: "129"))
        #expect(modes.canonical && modes.echo)
    }

    @Test("A Swift runtime trap still gives the terminal back")
    func trap() async throws {
        let session = try await startGallery(trap: true)
        defer { session.kill() }
        try session.type("!")
        let screen = try await session.waitFor("EXIT=", timeout: 60)
        #expect(!screen.contains("EXIT=0"))
        let modes = try #require(try await finish(session, expectingStatus: ""))
        #expect(modes.canonical && modes.echo)
    }

    @Test("Ctrl-Z suspends to the shell and fg brings the screen back")
    func suspendAndResume() async throws {
        let session = try await startGallery()
        defer { session.kill() }
        try session.sendKeys("C-z")
        let suspended = try await session.waitFor("Stopped")
        #expect(!suspended.contains("Enter open"))
        try session.typeLine("clear; fg; echo EXIT=$?")
        try await session.waitFor("Every TerminalUI view")
        try session.sendKeys("q")
        let modes = try #require(try await finish(session, expectingStatus: "0"))
        #expect(modes.canonical && modes.echo)
    }
}
