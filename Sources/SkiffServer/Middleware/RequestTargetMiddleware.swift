import Foundation
import Hummingbird

/// Refuses, before any other rule looks at it, a request whose path is not in its one plain form, or whose path or
/// query carries a NUL character.
///
/// The router reads `/v1//auth/login`, `/v1/./auth/login` or `/v1/auth/login/` as `/v1/auth/login`, while the
/// rules that decide by path (the per-address bucket over `/v1/auth/`, `Cache-Control: no-store` under `/v1/`,
/// 405 with `Allow`, a problem's `instance`) compare the text: refusing every other spelling of a path makes the
/// text and the route one. NUL (`%00`) would reach the database, which cuts a C string there (SQLite) or refuses
/// it (PostgreSQL); it answers 422, as in a JSON body (`JSONTextMiddleware`).
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
        // One pass over the UTF-8 bytes: Foundation's case-insensitive search, three times per segment, took about a
        // fifth of the 404 floor's throughput (BENCHMARKS.md, issue 23).
        return path.utf8.withContiguousStorageIfAvailable(isCanonical) ?? isCanonical(Array(path.utf8)[...])
    }

    private static func isCanonical<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        var segmentStart = bytes.startIndex + 1
        var index = segmentStart
        while index <= bytes.endIndex {
            if index == bytes.endIndex || bytes[index] == UInt8(ascii: "/") {
                let length = index - segmentStart
                if length == 0 { return false }
                if length <= 2, bytes[segmentStart..<index].allSatisfy({ $0 == UInt8(ascii: ".") }) { return false }
                segmentStart = index + 1
            } else if bytes[index] == UInt8(ascii: "\\") {
                return false
            } else if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex {
                let high = bytes[index + 1], low = bytes[index + 2] | 0x20
                if high == UInt8(ascii: "2") && (low == UInt8(ascii: "f") || low == UInt8(ascii: "e"))
                    || high == UInt8(ascii: "5") && low == UInt8(ascii: "c")
                { return false }
            }
            index += 1
        }
        return true
    }

    private static func containsNul(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0xFF, 0xFF)
        for byte in text.utf8 {
            if byte == 0 || previous == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0") { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
