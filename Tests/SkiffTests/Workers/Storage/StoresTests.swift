import Foundation
import Logging
import SkiffCore
import Testing
@testable import Skiff

@Suite("Storage workers")
struct StoresTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-stores-\(UUID().uuidString)")
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("the session is kept in a file only its owner can read, and removed on clear")
    func session() throws {
        let paths = AppPaths.rooted(at: folder)
        let store = SessionStore(file: paths.sessionFile)
        #expect(store.load() == nil)
        try store.save(Seeds.session)
        #expect(store.load() == Seeds.session)
        #expect(try mode(paths.sessionFile) == 0o600)
        #expect(try mode(paths.state) == 0o700)
        store.clear()
        #expect(store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: paths.sessionFile.path))
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("preferences keep the last number and nothing else")
    func preferences() throws {
        let paths = AppPaths.rooted(at: folder)
        let store = PreferencesStore(file: paths.preferencesFile)
        store.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        #expect(store.lastLogin() == LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        let text = try String(contentsOf: paths.preferencesFile, encoding: .utf8)
        #expect(text == #"{"countryCode":"+1","phoneNumber":"202 555 0143"}"#)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("the Home cache keeps one snapshot per user, survives reopening, and clears")
    func cache() throws {
        let paths = AppPaths.rooted(at: folder)
        let snapshot = HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: [Seeds.transaction(1)], nextCursor: "c1")
        do {
            let store = try CacheStore(file: paths.cacheDatabase, logger: logger)
            store.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        }
        let reopened = try CacheStore(file: paths.cacheDatabase, logger: logger)
        #expect(reopened.loadHome(userID: "u_1") == CachedHome(snapshot: snapshot, savedAt: Seeds.now))
        #expect(reopened.loadHome(userID: "someone-else") == nil)
        #expect(try mode(paths.cacheDatabase) == 0o600)
        reopened.clear()
        #expect(reopened.loadHome(userID: "u_1") == nil)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("the development outbox gives the newest code for the number and purpose, sent since the request")
    func outbox() throws {
        let file = folder.appendingPathComponent("sms-outbox.jsonl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lines = [
            #"{"code":"111111","purpose":"registration","sentAt":"2026-11-22T11:00:00Z","to":"+12025550143"}"#,
            #"{"code":"222222","purpose":"card-activation","sentAt":"2026-11-22T12:00:00Z","to":"+12025550143"}"#,
            #"{"code":"333333","purpose":"registration","sentAt":"2026-11-22T12:00:01Z","to":"+12025550199"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let outbox = DevelopmentOutbox(file: file)
        #expect(outbox.latestCode(to: "+12025550143", purpose: .cardActivation, since: Seeds.now.addingTimeInterval(-10)) == "222222")
        #expect(outbox.latestCode(to: "+12025550143", purpose: .registration, since: Seeds.now.addingTimeInterval(-10)) == nil)
        #expect(outbox.latestCode(to: "+12025550143", purpose: .registration, since: Seeds.now.addingTimeInterval(-7200)) == "111111")
        #expect(DevelopmentOutbox(file: folder.appendingPathComponent("missing")).latestCode(to: "x", purpose: .passwordReset, since: Seeds.now) == nil)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("XDG directories, with fallbacks under HOME, or all under one folder")
    func paths() {
        let xdg = AppPaths.standard(environment: ["HOME": "/home/a", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/c", "XDG_DATA_HOME": "/d"])
        #expect(xdg.state.path == "/s/skiff")
        #expect(xdg.cache.path == "/c/skiff")
        #expect(xdg.data.path == "/d/skiff")
        let fallback = AppPaths.standard(environment: ["HOME": "/home/a", "XDG_STATE_HOME": "relative"])
        #expect(fallback.state.path == "/home/a/.local/state/skiff")
        #expect(fallback.cache.path == "/home/a/.cache/skiff")
        #expect(fallback.data.path == "/home/a/.local/share/skiff")
        let rooted = AppPaths.rooted(at: URL(fileURLWithPath: "/tmp/x"))
        #expect(rooted.sessionFile.path == "/tmp/x/state/session.json")
        #expect(rooted.logFile.path == "/tmp/x/state/skiff.log")
    }
}
