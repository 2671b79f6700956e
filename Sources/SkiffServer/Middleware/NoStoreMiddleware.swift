import Hummingbird

/// Marks every answer under `/v1/` `Cache-Control: no-store`: each one carries a token or personal data, or
/// says something about an account, and no cache on the way may keep it.
struct NoStoreMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.uri.path.hasPrefix("/v1/") { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
