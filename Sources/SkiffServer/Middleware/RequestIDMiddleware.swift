import HTTPTypes
import Hummingbird

/// Returns every request's id (the one Hummingbird gives its logger, `context.id`) as `X-Request-ID`, and makes it
/// the task's `RequestLogID.current` while the request runs, so a JSON log line written anywhere below (a
/// service's own logger included) carries it. Outermost, so that problem answers carry it too. A client's own
/// `X-Request-ID` is not taken: the id is the server's, and one a client chose could be made to collide.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = context.id
        var response = try await RequestLogID.$current.withValue(id) { try await next(request, context) }
        response.headers[Self.header] = id
        return response
    }
}

/// The id of the request the current task serves, for log lines (`JSONLogHandler`); nil outside a request.
public enum RequestLogID {
    @TaskLocal public static var current: String?
}
