import Foundation

/// A real `skiff-server` of a test's own, on a SQLite database in `directory/server`: its one-shot commands (`seed`,
/// `seed-demo`) and `serve` on a free loopback port.
struct TestServer {
    let directory: String
    let path: String

    init(directory: String) throws {
        self.directory = directory
        path = try BuiltProduct.path("skiff-server")
        try FileManager.default.createDirectory(
            atPath: directory + "/server", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
    }

    /// Runs `skiff-server` with `arguments` on the test's database and waits for it to end.
    func command(_ arguments: [String]) async throws {
        let process = self.process(arguments)
        try process.run()
        // Waited for without blocking a thread of the shared pool, which the suite's other tests need.
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        guard process.terminationStatus == 0 else {
            throw TmuxError(description: "skiff-server \(arguments.first ?? "") exited with \(process.terminationStatus)")
        }
    }

    /// `skiff-server` with `arguments` on the test's database and outbox, not started.
    func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments + [
            "--bcrypt-cost", "10", "--database", directory + "/server/skiff.sqlite",
            "--sms-outbox", directory + "/server/sms-outbox.jsonl",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    /// `serve` on a free port of 127.0.0.1 with `options`, started: its address and process.
    func serve(_ options: [String] = []) throws -> (address: String, process: Process) {
        let port = try Self.freePort()
        let server = process(["serve", "--host", "127.0.0.1", "--port", "\(port)"] + options)
        try server.run()
        return ("http://127.0.0.1:\(port)", server)
    }

    /// A port free now on 127.0.0.1.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw TmuxError(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
