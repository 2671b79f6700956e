import SkiffAPI

/// A generated operation's answer: its documented successes, or `default`, a problem document. Every operation of
/// `openapi.yaml` whose responses have a `default` conforms, by the ProblemAnswering build plugin (nobody lists
/// them); an operation without one cannot go through `send`.
protocol ProblemAnswering {
    /// The problem document of a `default` answer; throws for any other (the generator writes this accessor).
    var `default`: Components.Responses.Problem { get throws }
}

extension APIClient {
    /// Calls one operation of the generated client and returns what `success` reads from its answer. A failed
    /// call, a problem answer and an unreadable body all come out as a `NetworkError`.
    func send<Output: ProblemAnswering, Value>(
        _ operation: (Client) async throws -> Output,
        success: (Output) throws -> Value
    ) async throws(NetworkError) -> Value {
        let client = client
        let output = try await NetworkErrorMapping.call { try await operation(client) }
        if let problem = try? output.default { throw problem.networkError }
        return try await NetworkErrorMapping.call { try success(output) }
    }
}
