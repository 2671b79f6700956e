extension Result where Failure == NetworkError {
    /// Runs a worker call and keeps its outcome, so an Interactor can finish on the main actor in one place.
    static func capture(_ body: @Sendable () async throws(NetworkError) -> Success) async -> Result<Success, NetworkError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
