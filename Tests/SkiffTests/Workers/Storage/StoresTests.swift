import Foundation
import Logging
import SkiffCore
import SkiffServer
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
        #expect(try store.load() == nil)
        try store.save(Seeds.session)
        #expect(try store.load() == Seeds.session)
        #expect(try mode(paths.sessionFile) == 0o600)
        #expect(try mode(paths.state) == 0o700)
        store.clear()
        #expect(try store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: paths.sessionFile.path))
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("the lock is kept in the session file, so a new start reads it; a file from before locks reads unlocked")
    func sessionLock() throws {
        let paths = AppPaths.rooted(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionStore(file: paths.sessionFile)
        try store.setLocked(true)
        #expect(try store.load() == nil, "no session, nothing to lock")
        try store.save(Seeds.session)
        try store.setLocked(true)
        let next = SessionStore(file: paths.sessionFile)
        #expect(try next.load()?.isLocked == true)
        #expect(try next.load()?.token == Seeds.session.token)
        try next.setLocked(false)
        #expect(try SessionStore(file: paths.sessionFile).load() == Seeds.session)

        let old = #"{"token":"tok_1","expiresAt":"2031-01-01T00:00:00Z","user":{"id":"u1","fullName":"Alex Rivera","countryCode":"+1","phoneNumber":"2025550143"}}"#
        try Data(old.utf8).write(to: paths.sessionFile)
        #expect(try SessionStore(file: paths.sessionFile).load()?.isLocked == false)
    }

    @Test("a write killed before its rename leaves the old file whole and an unlocked temporary the next store removes; one being written stays")
    func killedWriteLeftovers() throws {
        let paths = AppPaths.rooted(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionStore(file: paths.sessionFile)
        try store.save(Seeds.session)
        // A killed writer's file is unlocked, whatever its pid now belongs to (here the test runner's parent).
        let killed = paths.state.appendingPathComponent(".session.json.\(getppid()).\(UUID().uuidString).tmp")
        let writing = paths.state.appendingPathComponent(".session.json.\(getppid()).\(UUID().uuidString).tmp")
        let own = paths.state.appendingPathComponent(".session.json.\(getpid()).\(UUID().uuidString).tmp")
        for leftover in [killed, writing, own] {
            try Data(#"{"token":"tok_"#.utf8).write(to: leftover)
        }
        let writer = open(writing.path, O_RDONLY)
        #expect(flock(writer, LOCK_EX) == 0)
        let next = SessionStore(file: paths.sessionFile)
        #expect(try next.load() == Seeds.session)
        #expect(!FileManager.default.fileExists(atPath: killed.path))
        #expect(FileManager.default.fileExists(atPath: writing.path))
        #expect(FileManager.default.fileExists(atPath: own.path))
        try next.save(Seeds.session)
        let names = try FileManager.default.contentsOfDirectory(atPath: paths.state.path)
        #expect(names.filter { $0.hasSuffix(".tmp") }.sorted() == [writing.lastPathComponent, own.lastPathComponent].sorted())
        close(writer)
        _ = SessionStore(file: paths.sessionFile)
        #expect(!FileManager.default.fileExists(atPath: writing.path))
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

    @Test("the Spending panel's state is kept beside the last login, and neither overwrites the other")
    func spendingPreference() throws {
        let paths = AppPaths.rooted(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = PreferencesStore(file: paths.preferencesFile)
        #expect(!store.hidesSpending())
        store.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        store.saveHidesSpending(true)
        let reopened = PreferencesStore(file: paths.preferencesFile)
        #expect(reopened.hidesSpending())
        #expect(reopened.lastLogin() == LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        reopened.saveLastLogin(LastLogin(countryCode: "+44", phoneNumber: "20 7946 0018"))
        #expect(reopened.hidesSpending())
        reopened.saveHidesSpending(false)
        #expect(!reopened.hidesSpending())
        #expect(reopened.lastLogin()?.countryCode == "+44")
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
        // Written as the server writes them (SkiffCore's `OutgoingCode.outboxLine()`), with a torn line among them.
        let sent = [
            OutgoingCode(to: "+12025550143", code: "111111", purpose: .registration, sentAt: Seeds.now.addingTimeInterval(-3600)),
            OutgoingCode(to: "+12025550143", code: "222222", purpose: .cardActivation, sentAt: Seeds.now),
            OutgoingCode(to: "+12025550199", code: "333333", purpose: .registration, sentAt: Seeds.now.addingTimeInterval(1)),
        ]
        var contents = Data()
        for message in sent { contents += try message.outboxLine() }
        contents += Data(#"{"code":"4444"#.utf8)
        try contents.write(to: file)
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

    @Test("the built-in server keeps its database, key and outbox in wallet/, apart from the files skiff-server opens by default")
    func builtInServerFiles() {
        let paths = AppPaths.standard()
        #expect(paths.data.path == SkiffServerConfiguration.defaultDataDirectory.path)
        #expect(paths.serverDatabase.path == paths.data.path + "/wallet/skiff.sqlite")
        #expect(paths.smsOutbox.path == paths.data.path + "/wallet/sms-outbox.jsonl")
        #expect(paths.serverDatabase.path != SkiffServerConfiguration.defaultDatabasePath)
        #expect(paths.smsOutbox.path != SkiffServerConfiguration.defaultSMSOutboxPath)
        #expect(SkiffServerConfiguration(database: .sqlite(path: paths.serverDatabase.path), smsOutboxPath: paths.smsOutbox.path)
            .dataDirectory == paths.builtInServerData.path)
    }

    @Test("every file the stores and the log write is 0600 and every folder 0700, whatever the umask allows")
    func ownerOnlyFiles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        #expect(try paths.preparePrivateFolders().isEmpty)
        try SessionStore(file: paths.sessionFile).save(Seeds.session)
        PreferencesStore(file: paths.preferencesFile).saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        let cache = try CacheStore(file: paths.cacheDatabase, logger: logger)
        cache.saveHome(
            HomeSnapshot(summary: Seeds.summary, cards: [], transactions: [], nextCursor: nil), userID: "u_1", at: Seeds.now
        )
        let sink = try FileLogHandler.Sink(file: paths.logFile)
        Logger(label: "test") { FileLogHandler(label: $0, sink: sink) }.info("written")
        for folder in [folder, paths.data, paths.state, paths.cache] {
            #expect(try mode(folder) == 0o700, "\(folder.path)")
        }
        let files = try [paths.state, paths.cache].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).map { folder.appendingPathComponent($0) }
        }
        #expect(Set(files.map(\.lastPathComponent)).isSuperset(of: ["session.json", "preferences.json", "skiff.log", "cache.sqlite"]))
        for file in files {
            #expect(try mode(file) == 0o600, "\(file.path)")
        }
    }

    @Test("an existing folder of ours that others may enter is tightened to 0700, with a notice naming it")
    func wideFolderTightened() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        for wide in [paths.data, paths.state, paths.cache] {
            try FileManager.default.createDirectory(at: wide, withIntermediateDirectories: true)
            chmod(wide.path, 0o755)
        }
        let notices = try paths.preparePrivateFolders()
        #expect(notices.count == 3)
        for (notice, tightened) in zip(notices, [paths.data, paths.state, paths.cache]) {
            #expect(notice.contains(tightened.path) && notice.contains("755"), "\(notice)")
            #expect(try mode(tightened) == 0o700)
        }
        chmod(paths.cache.path, 0o750)
        _ = try CacheStore(file: paths.cacheDatabase, logger: logger)
        #expect(try mode(paths.cache) == 0o700)
        chmod(paths.state.path, 0o711)
        try SessionStore(file: paths.sessionFile).save(Seeds.session)
        #expect(try mode(paths.state) == 0o700)
    }

    @Test(
        "a folder open to others that belongs to someone else is refused, saying how to fix it",
        .enabled(if: geteuid() == 0, "only root can give a folder to another user")
    )
    func othersFolderRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        try FileManager.default.createDirectory(at: paths.state, withIntermediateDirectories: true)
        chmod(paths.state.path, 0o755)
        #expect(chown(paths.state.path, 65_534, 65_534) == 0)
        #expect {
            try paths.preparePrivateFolders()
        } throws: { error in
            "\(error)".contains(paths.state.path) && "\(error)".contains("chmod 700")
        }
        #expect(try mode(paths.state) == 0o755)
    }
}
