import Foundation

/// Where the app keeps its files: XDG directories by default, or everything under one folder (`--data-dir`).
public struct AppPaths: Sendable, Hashable {
    /// The app's data folder (`$XDG_DATA_HOME/skiff`); the built-in server keeps its files in `builtInServerData`.
    public var data: URL
    /// The session, preferences and log (`$XDG_STATE_HOME/skiff`).
    var state: URL
    /// The Home cache (`$XDG_CACHE_HOME/skiff`).
    var cache: URL

    init(data: URL, state: URL, cache: URL) {
        self.data = data
        self.state = state
        self.cache = cache
    }

    /// The XDG base directories, falling back to `~/.local/share`, `~/.local/state` and `~/.cache`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppPaths {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        return AppPaths(
            data: base("XDG_DATA_HOME", ".local/share").appendingPathComponent("skiff"),
            state: base("XDG_STATE_HOME", ".local/state").appendingPathComponent("skiff"),
            cache: base("XDG_CACHE_HOME", ".cache").appendingPathComponent("skiff")
        )
    }

    /// Everything under one folder: `data/`, `state/` and `cache/` inside it.
    public static func rooted(at folder: URL) -> AppPaths {
        AppPaths(
            data: folder.appendingPathComponent("data"),
            state: folder.appendingPathComponent("state"),
            cache: folder.appendingPathComponent("cache")
        )
    }

    var sessionFile: URL { state.appendingPathComponent("session.json") }
    var preferencesFile: URL { state.appendingPathComponent("preferences.json") }
    public var logFile: URL { state.appendingPathComponent("skiff.log") }
    var cacheDatabase: URL { cache.appendingPathComponent("cache.sqlite") }
    /// The built-in server's database, server key and SMS outbox: `wallet/` in the data folder, never the
    /// `skiff.sqlite` beside it that `skiff-server` opens by default, so the demo account it seeds cannot end up in a
    /// database served to other machines.
    public var builtInServerData: URL { data.appendingPathComponent("wallet") }
    public var serverDatabase: URL { builtInServerData.appendingPathComponent("skiff.sqlite") }
    public var smsOutbox: URL { builtInServerData.appendingPathComponent("sms-outbox.jsonl") }
}
