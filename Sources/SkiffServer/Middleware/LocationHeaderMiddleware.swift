import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Writes the `Location` header as a plain path. The OpenAPI runtime percent-encodes header values
/// (`%2Fv1%2Fcards%2F…`), which would make the header a single, wrong path segment for any client but the
/// generated one; that one decodes either form.
struct LocationHeaderMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String, next: NextOperation
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        if let location = response.headerFields[.location], let decoded = location.removingPercentEncoding {
            response.headerFields[.location] = decoded
        }
        return (response, responseBody)
    }
}
