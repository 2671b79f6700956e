import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A server running inside another process (the terminal app), started with `start` and ended with `stop`.
///
/// It installs no signal handlers: the host process owns SIGINT / SIGTERM and calls `stop()`.
public final class SkiffServerInstance: Sendable {
    /// The port it listens on (the free port picked when the configuration asked for 0).
    public let port: Int
    /// `http://host:port`, or `https://` when the configuration has TLS files.
    public let baseURL: URL
    private let serviceGroup: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, baseURL: URL, serviceGroup: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.baseURL = baseURL
        self.serviceGroup = serviceGroup
        self.task = task
    }

    enum StartError: Error, CustomStringConvertible {
        case stoppedBeforeListening

        public var description: String { "The server stopped before it was listening." }
    }

    /// Builds the server from `configuration`, starts it, and returns once it accepts connections.
    public static func start(_ configuration: SkiffServerConfiguration) async throws -> SkiffServerInstance {
        let (ports, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = try await buildApplication(configuration) { port in continuation.yield(.success(port)) }
        let group = makeServiceGroup(app, limits: configuration.limits, stopsOnSignals: false, logger: configuration.logger)
        let task = Task {
            do {
                try await group.run()
                continuation.yield(.failure(StartError.stoppedBeforeListening))
            } catch {
                continuation.yield(.failure(error))
                throw error
            }
        }
        for await result in ports {
            let port = try result.get()
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            let scheme = configuration.tls == nil ? "http" : "https"
            guard let url = URL(string: "\(scheme)://\(host):\(port)") else { break }
            return SkiffServerInstance(port: port, baseURL: url, serviceGroup: group, task: task)
        }
        throw StartError.stoppedBeforeListening
    }

    /// Stops accepting connections, lets requests in flight finish (cancelling those still running after
    /// `SkiffServerLimits.shutdownGracePeriod`), and returns when the server is down.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await task.result
    }
}
