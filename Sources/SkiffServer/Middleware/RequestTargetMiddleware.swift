import Foundation
import Hummingbird

/// Refuses, before any other rule looks at it, a request whose path is not in its one plain form, or whose path or
/// query carries a NUL character.
///
/// The router reads `/v1//auth/login`, `/v1/./auth/login` or `/v1/auth/login/` as `/v1/auth/login`, while the
/// rules that decide by path (the per-address bucket over `/v1/auth/`, `Cache-Control: no-store` under `/v1/`,
/// 405 with `Allow`, a problem's `instance`) compare the text: refusing every other spelling of a path makes the
/// text and the route one. NUL (`%00`) would reach the database, which cuts a C string there (SQLite) or refuses
/// it (PostgreSQL); it answers 422, as in a JSON body (`NulTextMiddleware`).
struct RequestTargetMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let problem = Self.problem(path: request.uri.path, query: request.uri.query) { throw problem }
        return try await next(request, context)
    }

    /// Why `path` and `query` (both as sent, still percent-encoded) are refused, or nil when they are not. A NUL
    /// names its query parameter, or `path`.
    static func problem(path: String, query: String?) -> Problem? {
        if containsNul(path) { return .nulCharacter(field: "path") }
        if let query, containsNul(query) {
            let parameter = query.split(separator: "&").first(where: { containsNul(String($0)) })
            let name = parameter.map { String($0.prefix { $0 != "=" }) }.flatMap { containsNul($0) ? nil : $0 }
            return .nulCharacter(field: name ?? "query")
        }
        return isCanonical(path) ? nil : .nonCanonicalPath
    }

    /// Whether `path` is `/` or `/`-separated segments that are not empty, `.` or `..`, with no encoded `/` or
    /// `.` and no trailing `/`.
    static func isCanonical(_ path: String) -> Bool {
        if path == "/" { return true }
        guard path.hasPrefix("/") else { return false }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && segment.range(of: "%2f", options: .caseInsensitive) == nil
                && segment.range(of: "%2e", options: .caseInsensitive) == nil
                && segment.range(of: "%5c", options: .caseInsensitive) == nil && !segment.contains("\\")
        }
    }

    private static func containsNul(_ text: String) -> Bool {
        text.contains("%00") || text.unicodeScalars.contains("\u{0}")
    }
}
