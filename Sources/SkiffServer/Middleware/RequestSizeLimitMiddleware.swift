import Hummingbird
import NIOCore

/// Refuses a request body over `CappedBody.maxRequestBody` with 413, before anything decodes it: at once when the declared
/// `Content-Length` is over, and while the body is read when it comes chunked or longer than declared.
/// Every route sits behind it, so no operation keeps a limit of its own.
struct RequestSizeLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > CappedBody.maxRequestBody {
            throw Problem.payloadTooLarge(limit: CappedBody.maxRequestBody)
        }
        var request = request
        request.body = RequestBody(asyncSequence: CappedBody(base: request.body, limit: CappedBody.maxRequestBody))
        return try await next(request, context)
    }
}

/// A request body that throws `Problem.payloadTooLarge` as soon as more than `limit` bytes have arrived.
struct CappedBody: AsyncSequence, Sendable {
    /// The largest request body any operation reads (64 KiB).
    static let maxRequestBody = 64 * 1024

    typealias Element = ByteBuffer

    let base: RequestBody
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int
        var received = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            received += buffer.readableBytes
            if received > limit { throw Problem.payloadTooLarge(limit: limit) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit)
    }
}
