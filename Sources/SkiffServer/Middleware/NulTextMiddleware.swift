import Foundation
import Hummingbird

/// Refuses a JSON body that holds a NUL character (`\u0000`) in any string, key or value, with a 422 naming the
/// field, before an operation decodes it: no text the API takes has one, and the database would cut the text there
/// (SQLite) or refuse it (PostgreSQL). Runs after the per-address bucket, so a refused client costs no body read;
/// the path and query are checked by `RequestTargetMiddleware`.
struct NulTextMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().contains("json") == true else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: CappedBody.maxRequestBody)
        // Not JSON at all: the operation's decoder answers that.
        if Self.mayHoldNul(body.readableBytesView),
           let json = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed]),
           let field = Self.fieldWithNul(in: json, at: []) {
            throw Problem.nulCharacter(field: field)
        }
        return try await next(request, context)
    }

    /// Whether any string of the JSON text `bytes` can hold NUL: JSON writes it only as the escape `\u0000`, and a raw
    /// NUL byte is not JSON. Without either, the body is not decoded here (decoding was 2 % of a transfer's CPU).
    static func mayHoldNul(_ bytes: some Collection<UInt8>) -> Bool {
        let escape = Array(#"\u0000"#.utf8)
        var matched = 0
        for byte in bytes {
            if byte == 0 { return true }
            matched = byte == escape[matched] ? matched + 1 : (byte == escape[0] ? 1 : 0)
            if matched == escape.count { return true }
        }
        return false
    }

    /// The path (as validation problems name fields: `a.b.[0]`) of the first string holding NUL in `value`.
    static func fieldWithNul(in value: Any, at path: [String]) -> String? {
        switch value {
        case let text as String:
            return text.unicodeScalars.contains("\u{0}") ? name(path) : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if key.unicodeScalars.contains("\u{0}") { return name(path + [key]) }
                if let field = fieldWithNul(in: object[key] as Any, at: path + [key]) { return field }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let field = fieldWithNul(in: element, at: path + ["[\(index)]"]) { return field }
            }
            return nil
        default:
            return nil
        }
    }

    private static func name(_ path: [String]) -> String {
        path.isEmpty ? "body" : path.joined(separator: ".")
    }
}
