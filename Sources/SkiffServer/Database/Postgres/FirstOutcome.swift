import Synchronization

/// The first of several racing outcomes, handed once to a continuation; the later ones are dropped.
final class FirstOutcome<Value: Sendable>: Sendable {
    /// What `operation` gives, or `PostgresHosts.NoAnswer` once `timeout` has passed, without waiting for it: an
    /// operation that never ends (a question on a connection that died under it, a server that accepted the socket
    /// and says nothing) is left behind, and `onLate` gets what it gives should it ever end (a connection to close).
    /// After the timeout `onLate(nil)` runs at once, to end the operation where it can.
    static func within(
        _ timeout: Duration, onLate: @escaping @Sendable (Value?) async -> Void = { _ in },
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = FirstOutcome<Value>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.deliver(to: continuation)
            Task {
                do {
                    let value = try await operation()
                    if !outcome.settle(.success(value)) { await onLate(value) }
                } catch {
                    outcome.settle(.failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                if outcome.settle(.failure(PostgresHosts.NoAnswer())) { await onLate(nil) }
            }
        }
    }

    private let state = Mutex<(continuation: CheckedContinuation<Value, any Error>?, settled: Bool)>((nil, false))

    func deliver(to continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the continuation with `outcome` if nothing did before; true when this one did.
    @discardableResult
    func settle(_ outcome: Result<Value, any Error>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.settled else { return nil }
            state.settled = true
            return state.continuation
        }
        continuation?.resume(with: outcome)
        return continuation != nil
    }
}
