import Foundation
import Testing

extension EndToEnd {
    /// Runs the real `skiff-server` binary with options it must refuse before it opens anything.
    @Suite("skiff-server options")
    struct ServerCommandTests {
        @Test("skiff-server refuses a bcrypt cost below 10, and a trusted proxy that is not an IP address", arguments: [
            (["serve", "--bcrypt-cost", "4"], "--bcrypt-cost must be 10 to 31"),
            (["serve", "--bcrypt-cost", "9"], "--bcrypt-cost must be 10 to 31"),
            (["seed-demo", "--bcrypt-cost", "4"], "--bcrypt-cost must be 10 to 31"),
            (["serve", "--trusted-proxy", "proxy.example"], "--trusted-proxy needs an IP address"),
        ])
        func refusedOptions(arguments: [String], message: String) throws {
            let directory = NSTemporaryDirectory() + "skiff-server-options-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try BuiltProduct.path("skiff-server"))
            process.arguments = arguments + ["--database", directory + "/skiff.sqlite"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 64)
            #expect(output.contains(message))
            #expect(!FileManager.default.fileExists(atPath: directory + "/skiff.sqlite"))
        }
    }
}
