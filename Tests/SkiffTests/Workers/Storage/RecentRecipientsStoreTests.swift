import Foundation
import Testing
@testable import Skiff

/// Issue 42, point 11: the numbers money last went to, kept in the preferences file for each user.
@Suite("Recent recipients in the preferences file")
struct RecentRecipientsStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-recents-\(UUID().uuidString)")

    let jordan = RecentRecipient(number: "+12025550111", name: "Jordan R.")
    let sam = RecentRecipient(number: "+12025550122", name: "Sam L.")

    @Test("kept per user beside the last login and the Spending panel, none overwriting another; the owner's file alone")
    func perUser() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        let store = PreferencesStore(file: paths.preferencesFile)
        #expect(store.recentRecipients(userID: "u_1").isEmpty)
        store.saveLastLogin(LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        store.saveHidesSpending(true)
        store.saveRecentRecipients([jordan, sam], userID: "u_1")
        store.saveRecentRecipients([sam], userID: "u_2")
        let reopened = PreferencesStore(file: paths.preferencesFile)
        #expect(reopened.recentRecipients(userID: "u_1") == [jordan, sam])
        #expect(reopened.recentRecipients(userID: "u_2") == [sam])
        #expect(reopened.lastLogin() == LastLogin(countryCode: "+1", phoneNumber: "202 555 0143"))
        #expect(reopened.hidesSpending())
        reopened.saveLastLogin(LastLogin(countryCode: "+44", phoneNumber: "20 7946 0018"))
        #expect(reopened.recentRecipients(userID: "u_1") == [jordan, sam])
        let mode = try (FileManager.default.attributesOfItem(atPath: paths.preferencesFile.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let text = try String(contentsOf: paths.preferencesFile, encoding: .utf8)
        #expect(!text.contains("Jordan Rivera") && !text.contains("amount"), "a short name and a number, nothing more")
    }

    @Test("a file the first versions wrote reads with none; a file holding only recent recipients reads too")
    func olderAndNewerFiles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = AppPaths.rooted(at: folder)
        try FileManager.default.createDirectory(at: paths.preferencesFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"countryCode":"+1","phoneNumber":"202 555 0143"}"#.utf8).write(to: paths.preferencesFile)
        #expect(PreferencesStore(file: paths.preferencesFile).recentRecipients(userID: "u_1").isEmpty)
        try Data(#"{"recentRecipients":{"u_1":[{"number":"+12025550111","name":"Jordan R."}]}}"#.utf8).write(to: paths.preferencesFile)
        #expect(PreferencesStore(file: paths.preferencesFile).recentRecipients(userID: "u_1") == [jordan])
    }

    @Test("remembering puts the newest first, once, and keeps five")
    func remembering() {
        let others = (2...6).map { RecentRecipient(number: "+1202555020\($0)", name: "P\($0)") }
        #expect(RecentRecipient.remembering(jordan, in: others).map(\.name) == ["Jordan R.", "P2", "P3", "P4", "P5"])
        #expect(RecentRecipient.remembering(others[2], in: others).map(\.name) == ["P4", "P2", "P3", "P5", "P6"])
    }
}
