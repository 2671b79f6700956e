import Foundation

/// Where the server is: known at once (`--server`), or known once the built-in server has started, which it does
/// behind the first screen so that screen never waits for migrations, seeding or bcrypt.
public final class ServerEndpoint: Sendable, CustomStringConvertible {
    private let resolution: Task<URL, any Error>
    /// The address when it was given, for saying where the app connects before anything is sent.
    let knownURL: URL?

    /// A server at `url`.
    public init(url: URL) {
        knownURL = url
        resolution = Task { url }
    }

    /// A server that `start` brings up (once, starting now); its address is what `start` returns.
    public init(starting start: @escaping @Sendable () async throws -> URL) {
        knownURL = nil
        resolution = Task { try await start() }
    }

    /// The address for the log (without any credentials), or that the built-in server is starting.
    public var description: String { knownURL?.redactedForLog ?? "the built-in server, starting" }

    /// The server's address, once it is known: a request made earlier waits for it here.
    func url() async throws(NetworkError) -> URL {
        do {
            return try await resolution.value
        } catch {
            throw .serverNotStarted(reason: "\(error)")
        }
    }
}
