import HTTPTypes
import Hummingbird

/// Returns every request's id (the one Hummingbird gives its logger as `hb.request.id`, else one made here: a log
/// handler that keeps no metadata has none, and `context.id` would trap) as `X-Request-ID`, and makes it
/// the task's `RequestLogID.current` while the request runs, so a JSON log line written anywhere below (a
/// service's own logger included) carries it. Outermost, so that problem answers carry it too. A client's own
/// `X-Request-ID` is not taken: the id is the server's, and one a client chose could be made to collide.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = context.logger[metadataKey: "hb.request.id"]?.description ?? RequestLogID.make()
        var response = try await RequestLogID.$current.withValue(id) { try await next(request, context) }
        response.headers[Self.header] = id
        return response
    }
}

/// The id of the request the current task serves, for log lines (`JSONLogHandler`); nil outside a request.
public enum RequestLogID {
    @TaskLocal public static var current: String?

    /// A fresh id: 32 hex digits, like Hummingbird's.
    static func make() -> String {
        (0..<2).map { _ in
            let hex = String(UInt64.random(in: .min ... .max), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
