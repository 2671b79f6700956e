import Foundation

/// Why a tmux-driven test step failed.
struct TmuxError: Error, CustomStringConvertible {
    let description: String
}

/// A private tmux server (its own socket) running one command in a pane of a given size, for driving
/// terminal programs as a person would: send keys, read the screen, wait for text, resize, kill.
///
/// Works without a terminal or standard input (CI): the session is detached. The server is killed by
/// `kill()` and, as a safety net, when the value is deinitialised.
final class TmuxSession {
    /// The socket name passed to `tmux -L`.
    let socket: String
    private(set) var isAlive = true
    private var socketPath: String?

    /// Starts `command` (run by `sh -c`) in a detached session of `width`×`height` with extra environment.
    init(command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        socket = "skiff-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
        let shellCommand = (["env"] + assignments + ["sh", "-c", Self.quote(command)]).joined(separator: " ")
        try run(["new-session", "-d", "-x", String(width), "-y", String(height), shellCommand])
        socketPath = try? run(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try run(["set-option", "-g", "remain-on-exit", "on"])
    }

    /// Starts an interactive shell (bash without rc files, prompt `$ `), for running programs and then
    /// checking the terminal afterwards (for example with `stty -a`).
    static func shell(width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws -> TmuxSession {
        var environment = environment
        environment["PS1"] = "$ "
        return try TmuxSession(command: "exec bash --norc --noprofile", width: width, height: height, environment: environment)
    }

    deinit {
        kill()
    }

    /// Sends tmux key names (`Enter`, `Escape`, `Tab`, `BTab`, `Down`, `C-c` …).
    func sendKeys(_ keys: String...) throws {
        try run(["send-keys"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try run(["send-keys", "-l", text])
    }

    /// Sends raw bytes to the program, as a terminal would (for mouse reports).
    func sendBytes(_ bytes: [UInt8]) throws {
        try run(["send-keys", "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// Sends an SGR mouse report (mode 1006) for button code `code` at a 0-based cell.
    func sendMouse(_ code: Int, x: Int, y: Int, release: Bool = false) throws {
        try sendBytes(Array("\u{1B}[<\(code);\(x + 1);\(y + 1)\(release ? "m" : "M")".utf8))
    }

    /// Whether the program in the pane has asked for SGR mouse reports (modes 1000/1002 with 1006).
    func reportsMouse() throws -> Bool {
        try run(["display-message", "-p", "#{mouse_any_flag}#{mouse_sgr_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "11"
    }

    /// Pastes text as a terminal paste (bracketed when the program asked for it).
    func paste(_ text: String) throws {
        try run(["set-buffer", "--", text])
        try run(["paste-buffer", "-p", "-d"])
    }

    /// Types a line of text and presses Enter.
    func typeLine(_ text: String) throws {
        try type(text)
        try sendKeys("Enter")
    }

    /// The visible pane as text.
    func capture() throws -> String {
        try run(["capture-pane", "-p"])
    }

    /// Waits until the pane shows `text` (on one line, or wrapped across lines as a form's readable column wraps
    /// a sentence), or fails after `timeout` seconds with the last screen attached.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 15) async throws -> String {
        try await waitUntil("the screen shows \"\(text)\"", timeout: timeout) { Self.shows(text, on: $0) }
    }

    /// Whether `screen` shows `text` on one line or wrapped: each line trimmed and run together with one space.
    static func shows(_ text: String, on screen: String) -> Bool {
        if screen.contains(text) { return true }
        let prose = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return prose.joined(separator: " ").contains(text)
    }

    /// Waits until the pane no longer shows `text`.
    @discardableResult
    func waitForAbsence(_ text: String, timeout: Double = 15) async throws -> String {
        try await waitUntil("the screen no longer shows \"\(text)\"", timeout: timeout) { !$0.contains(text) }
    }

    /// Waits until `condition` holds for the pane's text, polling every 50 ms for at most `timeout` seconds.
    ///
    /// A capture can be taken while the program is still writing a frame (a new banner above rows of the old
    /// form), so a screen that first meets the condition is returned only once it is still there one poll
    /// later: either unchanged, or a third capture in a row meets the condition too (a spinner that keeps
    /// turning never holds still).
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 15, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        var previous: String?
        var heldFor = 0
        while Date() < deadline {
            screen = try capture()
            if condition(screen) {
                if screen == previous || heldFor >= 2 { return screen }
                heldFor += 1
            } else {
                heldFor = 0
            }
            previous = screen
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        if heldFor > 0 { return screen }
        throw TmuxError(description: "Timed out after \(timeout) s waiting until \(what). Screen:\n\(screen)")
    }

    /// Resizes the window (the program receives SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-x", String(width), "-y", String(height)])
    }

    /// A tmux format expanded for the pane, such as `#{alternate_on}` or `#{cursor_flag}`.
    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process id of the program running in the pane.
    func panePID() throws -> Int32 {
        let text = try run(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw TmuxError(description: "No pane pid in \"\(text)\"") }
        return pid
    }

    /// Kills the tmux server and everything running in it.
    func kill() {
        guard isAlive else { return }
        isAlive = false
        _ = try? run(["kill-server"])
        if let socketPath, !socketPath.isEmpty {
            try? FileManager.default.removeItem(atPath: socketPath)
        }
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "tmux-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try Self.spawn(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, outputPath: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// declare; nil where the C library lacks it.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Runs a program found on PATH with standard input from /dev/null and its output in a file; returns the
    /// wait status. Descriptors above 2 are closed in the child. (Not `Process`: the first tmux command forks the
    /// server, which keeps inherited descriptors, and `Process.waitUntilExit` was seen never to return then.)
    private static func spawn(_ arguments: [String], outputPath: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process goes with it: the tmux server outlives the command and kept, for example, a
        // fault proxy's listening socket open, so the port stayed taken (and took connections) after the proxy closed it.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        if (environment["TERM"] ?? "").isEmpty || environment["TERM"] == "dumb" {
            environment["TERM"] = "xterm-256color"
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The calling thread may be a concurrency worker with most signals blocked; tmux (and the shells it
        // starts) would inherit that mask and never die of SIGHUP / SIGTERM, so start it with a clean one.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw TmuxError(description: "cannot start \(arguments[0]): error \(result) (is tmux installed?)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Finds an executable built alongside the test bundle (same build folder of the scratch path in use).
enum BuiltProduct {
    /// The path of `name` in the build folder the tests run from; `SKIFF_<NAME>_BINARY` overrides it.
    static func path(_ name: String) throws -> String {
        let override = "SKIFF_" + name.uppercased().replacingOccurrences(of: "-", with: "_") + "_BINARY"
        if let path = ProcessInfo.processInfo.environment[override], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        throw TmuxError(description: "\(name) was not found next to \(executable.path); build it first (swift build --product \(name)).")
    }
}

/// What `stty -a` printed about canonical mode and echo.
struct TerminalModes {
    let canonical: Bool
    let echo: Bool

    /// Reads the modes from `stty -a` output (`icanon` / `-icanon`, `echo` / `-echo`).
    init?(sttyOutput: String) {
        let tokens = Set(sttyOutput.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        if tokens.contains("icanon") {
            canonical = true
        } else if tokens.contains("-icanon") {
            canonical = false
        } else {
            return nil
        }
        if tokens.contains("echo") {
            echo = true
        } else if tokens.contains("-echo") {
            echo = false
        } else {
            return nil
        }
    }
}

extension TmuxSession {
    /// A shell for the wallet, in UTF-8 and without the interactive backtracer, at its prompt.
    static func walletShell() async throws -> TmuxSession {
        let session = try TmuxSession.shell(environment: ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
        try await session.waitFor("$")
        return session
    }

    /// Runs `command` (`skiff` and its options) on a cleared screen, `EXIT=` and its status printed after it, and waits
    /// for Login.
    func startWallet(_ command: String) async throws {
        try typeLine("clear; \(command); echo EXIT=$?")
        try await waitFor("Log in with your phone number", timeout: 60)
    }

    /// Logs in from Login as a person does (the number, Tab, the password, Enter; the password alone when the number
    /// is remembered) and answers Home's screen.
    @discardableResult
    func logIn(phone: String = "2025550143", password: String = "sail-away-2026") async throws -> String {
        if try !capture().contains(/Phone number +\S/) {
            try type(phone)
            try sendKeys("Tab")
        }
        try type(password)
        try sendKeys("Enter")
        return try await waitFor("Balance $", timeout: 60)
    }
}
