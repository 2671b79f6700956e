import Hummingbird

/// The outermost middleware: times each request to its response head and counts it in `ServerMetrics`.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let observation = RequestObservation()
        let clock = ContinuousClock()
        let started = clock.now
        func record(status: Int, replayed: Bool) {
            metrics.record(.init(
                operation: observation.operation ?? ServerMetrics.otherOperation, status: status,
                problem: observation.problem, replayed: replayed, duration: clock.now - started
            ))
        }
        do {
            let response = try await RequestObservation.$current.withValue(observation) { try await next(request, context) }
            record(status: Int(response.status.code), replayed: response.headers[IdempotencyMiddleware.replayedHeaderName] != nil)
            return response
        } catch {
            // Only what no inner middleware turned into a response: the server answers it with a 500.
            record(status: 500, replayed: false)
            throw error
        }
    }
}
