import Foundation
import Logging
import Synchronization
import Testing
@testable import Skiff

@Suite("DeferredCacheStore: the Home cache opened after the first frame")
struct DeferredCacheStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-deferred-cache-\(UUID().uuidString)")
    let snapshot = HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: [Seeds.transaction(1)], nextCursor: nil)

    /// A logger writing to a file in the test's folder, and a way to read what it wrote.
    func fileLogger() throws -> (Logger, () -> String) {
        let file = folder.appendingPathComponent("skiff.log")
        let sink = try FileLogHandler.Sink(file: file)
        return (Logger(label: "test") { FileLogHandler(label: $0, sink: sink) }, { (try? String(contentsOf: file, encoding: .utf8)) ?? "" })
    }

    @Test("nothing is opened until open() or a first use, and it is opened once")
    func opensOnce() {
        let opened = Mutex(0)
        let double = CacheStoreDouble()
        let sut = DeferredCacheStore(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) {
            opened.withLock { $0 += 1 }
            return double
        }
        #expect(opened.withLock { $0 } == 0)
        sut.open()
        #expect(opened.withLock { $0 } == 1)
        sut.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        #expect(sut.loadHome(userID: "u_1") == CachedHome(snapshot: snapshot, savedAt: Seeds.now))
        sut.clear()
        sut.open()
        #expect(opened.withLock { $0 } == 1)
        #expect(double.clears == 1)
    }

    @Test("a use before open() opens the real cache file itself, and what was saved is there when reopened")
    func useBeforeOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        let (logger, _) = try fileLogger()
        let first = DeferredCacheStore(logger: logger) { try CacheStore(file: paths.cacheDatabase, logger: logger) }
        #expect(!FileManager.default.fileExists(atPath: paths.cacheDatabase.path))
        first.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        first.flush()
        #expect(FileManager.default.fileExists(atPath: paths.cacheDatabase.path))

        let second = DeferredCacheStore(logger: logger) { try CacheStore(file: paths.cacheDatabase, logger: logger) }
        #expect(second.loadHome(userID: "u_1") == CachedHome(snapshot: snapshot, savedAt: Seeds.now))
    }

    @Test("a cache that cannot be opened is logged once; Home then reads nothing and saving is a no-op")
    func unavailable() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (logger, log) = try fileLogger()
        let tries = Mutex(0)
        let sut = DeferredCacheStore(logger: logger) {
            tries.withLock { $0 += 1 }
            throw CocoaError(.fileWriteNoPermission)
        }
        sut.open()
        sut.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        #expect(sut.loadHome(userID: "u_1") == nil)
        sut.clear()
        #expect(tries.withLock { $0 } == 1)
        #expect(log().components(separatedBy: "The Home cache could not be opened").count == 2, "\(log())")
    }

    @Test("saves are written off the caller's thread, the last of a burst once; a load or a flush writes what is pending, a clear drops it")
    func writeBehind() {
        let double = CacheStoreDouble()
        let sut = DeferredCacheStore(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { double }
        sut.open()
        for index in 1...50 {
            let snapshot = HomeSnapshot(summary: Seeds.summary, cards: [], transactions: [Seeds.transaction(index)], nextCursor: nil)
            sut.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        }
        let latest = HomeSnapshot(summary: Seeds.summary, cards: [], transactions: [Seeds.transaction(50)], nextCursor: nil)
        #expect(sut.loadHome(userID: "u_1") == CachedHome(snapshot: latest, savedAt: Seeds.now))
        #expect(double.saves == 1)
        sut.saveHome(snapshot, userID: "u_1", at: Seeds.now)
        sut.clear()
        sut.flush()
        #expect(double.saves == 1)
        #expect(sut.loadHome(userID: "u_1") == nil)
    }
}
