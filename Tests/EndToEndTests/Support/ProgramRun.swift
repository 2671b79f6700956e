import Foundation

/// One of the built programs run to its end with no terminal: its exit status and what it wrote on each stream.
struct ProgramRun {
    var status: Int32
    var output: String
    var errors: String

    /// Runs the built product `product` with `arguments` and `environment` (nil: this process's), reading nothing on
    /// standard input. A run still going after `timeout` is stopped, so that a setting that should have been refused
    /// and started a server instead fails its test on the status rather than waiting for ever. The waits are on a
    /// thread of their own: on a thread of the shared pool (two on this machine) they held up every other test of
    /// the package while the program ran.
    static func run(
        _ product: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 60
    ) async throws -> ProgramRun {
        let path = try BuiltProduct.path(product)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try runWaiting(path, arguments, environment: environment, timeout: timeout)
                })
            }
        }
    }

    /// `run`'s work, blocking the calling thread until the program has ended.
    private static func runWaiting(
        _ path: String, _ arguments: [String], environment: [String: String]?, timeout: TimeInterval
    ) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let running = process
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if running.isRunning { running.terminate() } }
        // Drained together: either pipe could fill while the other is read.
        nonisolated(unsafe) var errorData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return ProgramRun(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self)
        )
    }
}
