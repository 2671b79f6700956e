import Foundation
import SkiffCore
import Testing
@testable import SkiffServer
#if canImport(Glibc)
import Glibc
#endif

@Suite("The SMS outbox and the database file: owner-only, no links, the outbox on loopback only")
struct OwnerOnlyFileTests {
    private let code = OutgoingCode(to: "+12025550100", code: "481516", purpose: .registration, sentAt: Date(timeIntervalSince1970: 1_800_000_000))

    @Test("An outbox that is a symbolic link is refused when a code is sent and at start; the file it points to stays empty")
    func outboxSymlinkRefused() async throws {
        let server = try TestServer(useOutboxFile: true)
        defer { server.remove() }
        let target = server.directory.appendingPathComponent("elsewhere.jsonl").path
        #expect(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: server.configuration.smsOutboxPath, withDestinationPath: target)

        let outbox = SMSOutboxCodeSender(path: server.configuration.smsOutboxPath)
        let sending = await #expect(throws: OwnerOnlyFile.Refusal.self) { try await outbox.send(code) }
        #expect(sending?.description == "The SMS outbox \(server.configuration.smsOutboxPath) is a symbolic link, "
            + "which is not followed: give the path of the file itself.")
        let starting = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(starting?.description.contains("is a symbolic link") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty)
        try await sender(at: target).send(code)
        #expect(SMSOutboxCodeSender.messages(at: target) == [code])
    }

    private func sender(at path: String) -> SMSOutboxCodeSender { SMSOutboxCodeSender(path: path) }

    @Test("An outbox that group or others may read or write is refused, at start and when a code is sent, with the chmod that fixes it",
          arguments: [0o640, 0o604, 0o620, 0o602, 0o644])
    func outboxOpenToOthers(mode: Int) async throws {
        let server = try TestServer(useOutboxFile: true)
        defer { server.remove() }
        let path = server.configuration.smsOutboxPath
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        chmod(path, mode_t(mode))
        let expected = "The SMS outbox \(path) can be read or written by other users (mode \(String(mode, radix: 8))); "
            + "make it the owner's alone with `chmod 600 \(path)` and start again."
        let sending = await #expect(throws: OwnerOnlyFile.Refusal.self) { try await sender(at: path).send(code) }
        #expect(sending?.description == expected)
        let starting = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(starting?.description == expected)
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))

        chmod(path, 0o600)
        try await sender(at: path).send(code)
        #expect(SMSOutboxCodeSender.messages(at: path) == [code])
        _ = try await buildApplication(server.configuration)
    }

    @Test("A SQLite database that group or others may read or write is refused at open, with the chmod that fixes it")
    func databaseOpenToOthers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        _ = try await buildApplication(server.configuration)
        chmod(server.databasePath, 0o644)
        let error = await #expect(throws: OwnerOnlyFile.Refusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(error?.description == "The database \(server.databasePath) can be read or written by other users (mode 644); "
            + "make it the owner's alone with `chmod 600 \(server.databasePath)` and start again.")
        chmod(server.databasePath, 0o600)
        _ = try await buildApplication(server.configuration)
    }

    @Test("Off loopback, a server that would write codes to the SMS outbox refuses to start unless asked; with a sender it starts")
    func outboxOffLoopback() async throws {
        var server = try TestServer(useOutboxFile: true).usingStripe()
        defer { server.remove() }
        server.configuration.host = "0.0.0.0"
        server.configuration.tls = TLSFiles(certificateChainPath: "server.pem", privateKeyPath: "server-key.pem")
        let message = #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) {
            _ = try server.configuration.checkExposure()
        }?.description ?? ""
        #expect(message.contains("SMS outbox \(server.configuration.smsOutboxPath)"))
        #expect(message.contains("Give --sms-outbox-off-loopback to use it there anyway, or listen on 127.0.0.1."))
        server.configuration.tls = nil
        server.configuration.allowsInsecureHTTP = true
        await #expect(throws: SkiffServerConfiguration.ExposureRefusal.self) { _ = try await buildApplication(server.configuration) }
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))

        server.configuration.allowsSMSOutboxOffLoopback = true
        #expect(try server.configuration.checkExposure() != nil)  // only the plain-HTTP warning is left
        server.configuration.allowsSMSOutboxOffLoopback = false
        server.configuration.codeSender = server.sender
        #expect(try server.configuration.checkExposure() != nil)
        server.configuration.host = "127.0.0.1"
        server.configuration.codeSender = nil
        #expect(try server.configuration.checkExposure() == nil)
    }
}
