import Foundation
import Logging
import SkiffCore
import Testing
@testable import Skiff

/// What a kill mid-write, a full disk or a person's editor can leave where the app keeps a file.
enum DamagedContent: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case empty
    case truncated
    case garbage
    case wrongJSON

    var testDescription: String { rawValue }

    /// These bytes in place of `whole`, a file the app wrote.
    func applied(to whole: Data) -> Data {
        switch self {
        case .empty: Data()
        case .truncated: whole.prefix(whole.count / 2)
        case .garbage: Data([0x00, 0xFF, 0x13, 0x37, 0xC3, 0x28]) + Data("not json at all".utf8)
        case .wrongJSON: Data(#"{"token": 42, "user": []}"#.utf8)
        }
    }
}

/// A session store whose file was there but unreadable.
struct UnreadableSessionStore: SessionStoring {
    func load() throws(UnreadableFile) -> Session? {
        throw UnreadableFile(file: URL(fileURLWithPath: "/state/session.json"), setAside: nil)
    }
    func save(_ session: Session) throws {}
    func clear() {}
}

@Suite("Unreadable app files")
struct UnreadableFilesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-unreadable-\(UUID().uuidString)")

    /// A logger writing to `skiff.log` in the test's folder, and a way to read what it wrote.
    func fileLogger() throws -> (Logger, () -> String) {
        let file = folder.appendingPathComponent("skiff.log")
        let sink = try FileLogHandler.Sink(file: file)
        return (Logger(label: "test") { FileLogHandler(label: $0, sink: sink) }, { (try? String(contentsOf: file, encoding: .utf8)) ?? "" })
    }

    /// The files beside `file` whose names start with `<name>.corrupt-`.
    func setAside(_ file: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(file.lastPathComponent + ".corrupt-") }
            .map { file.deletingLastPathComponent().appendingPathComponent($0) }
    }

    @Test("an unreadable session file is set aside whole, logged and reported; the next load starts afresh", arguments: DamagedContent.allCases)
    func session(damage: DamagedContent) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        let (logger, log) = try fileLogger()
        let sut = SessionStore(file: paths.sessionFile, logger: logger)
        try sut.save(Seeds.session)
        let damaged = damage.applied(to: try Data(contentsOf: paths.sessionFile))
        try damaged.write(to: paths.sessionFile)

        #expect(throws: UnreadableFile.self) { try sut.load() }

        let moved = try setAside(paths.sessionFile)
        #expect(moved.count == 1)
        #expect(try moved.first.map { try Data(contentsOf: $0) } == damaged)
        #expect(!FileManager.default.fileExists(atPath: paths.sessionFile.path))
        #expect(log().contains("The saved session was unreadable and set aside"), "\(log())")
        #expect(try sut.load() == nil)
        try sut.save(Seeds.session)
        #expect(try sut.load() == Seeds.session)
    }

    @Test("unreadable preferences are set aside and logged, and count as no last login", arguments: DamagedContent.allCases)
    func preferences(damage: DamagedContent) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        let (logger, log) = try fileLogger()
        let sut = PreferencesStore(file: paths.preferencesFile, logger: logger)
        sut.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        try damage.applied(to: try Data(contentsOf: paths.preferencesFile)).write(to: paths.preferencesFile)

        #expect(sut.lastLogin() == nil)

        #expect(try setAside(paths.preferencesFile).count == 1)
        #expect(!FileManager.default.fileExists(atPath: paths.preferencesFile.path))
        #expect(log().contains("The preferences were unreadable and set aside"), "\(log())")
        sut.saveLastLogin(LastLogin(countryCode: "+44", phoneNumber: "7700900123"))
        #expect(sut.lastLogin() == LastLogin(countryCode: "+44", phoneNumber: "7700900123"))
    }

    @Test("a cache database cut short or overwritten is set aside and an empty cache opens in its place", arguments: [
        DamagedContent.truncated, .garbage, .wrongJSON,
    ])
    func cache(damage: DamagedContent) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        let (logger, log) = try fileLogger()
        let snapshot = HomeSnapshot(
            summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: (1...200).map { Seeds.transaction($0) }, nextCursor: "c1"
        )
        do {
            let cache = try CacheStore(file: paths.cacheDatabase, logger: logger)
            cache.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        }
        let whole = try Data(contentsOf: paths.cacheDatabase)
        try damage.applied(to: whole).write(to: paths.cacheDatabase)

        let sut = try CacheStore(file: paths.cacheDatabase, logger: logger)

        #expect(try setAside(paths.cacheDatabase).count == 1)
        #expect(log().contains("The Home cache was unreadable and set aside"), "\(log())")
        #expect(sut.loadHome(userID: "u_1") == nil)
        sut.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        #expect(sut.loadHome(userID: "u_1") == CachedHome(snapshot: snapshot, savedAt: Seeds.now))
    }

    @Test("an empty cache file is a new cache, not a damaged one")
    func emptyCache() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        try FileManager.default.createDirectory(at: paths.cache, withIntermediateDirectories: true)
        try Data().write(to: paths.cacheDatabase)
        let sut = try CacheStore(file: paths.cacheDatabase, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        #expect(try setAside(paths.cacheDatabase).isEmpty)
        sut.saveHome(HomeSnapshot(summary: Seeds.summary, cards: [], transactions: [], nextCursor: nil), userID: "u_1", at: Seeds.now)
        #expect(sut.loadHome(userID: "u_1") != nil)
    }

    @Test("a second damaged file the same second gets a name of its own")
    func setAsideTwice() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("one".utf8).write(to: file)
        let first = try #require(PrivateFile.setAside(file, at: Seeds.now))
        try Data("two".utf8).write(to: file)
        let second = try #require(PrivateFile.setAside(file, at: Seeds.now))
        #expect(first != second)
        #expect(try String(contentsOf: first, encoding: .utf8) == "one")
        #expect(try String(contentsOf: second, encoding: .utf8) == "two")
        #expect(first.lastPathComponent.hasPrefix("session.json.corrupt-"))
    }

    @MainActor
    @Test("Launch goes to Login saying the saved session could not be read")
    func launchSaysSo() {
        let sut = LaunchInteractor(presenter: LaunchPresentationLogicSpy(), sessions: UnreadableSessionStore(), serverDescription: "x", clock: .immediate())
        var routes: [LaunchRoute] = []
        sut.route = { routes.append($0) }
        sut.start(request: .init())
        guard case .login(.savedSessionUnreadable) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        let display = LoginDisplayLogicSpy()
        let presenter = LoginPresenter(formatting: Seeds.utc)
        presenter.viewController = display
        presenter.presentLoad(response: .init(lastLogin: nil, demo: nil, notice: .savedSessionUnreadable))
        #expect(display.displayLoadCalls.last?.notice == BannerMessage(
            .error, "Your saved session could not be read and was set aside. Please log in again."
        ))
    }
}
