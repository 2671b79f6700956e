import Foundation

/// The Idempotency-Key a request carries: the same request sent again gets the same key, so the server answers a
/// retry after a lost answer as it answered the first try; any other request gets a new key. A coordinator that
/// rebuilds a scene for the same request (Esc, then back) hands the new scene the same keys.
@MainActor
final class RetryKeys<Request: Equatable> {
    private let makeKey: () -> String
    private var last: (request: Request, key: String)?

    init(makeKey: @escaping () -> String = { UUID().uuidString }) {
        self.makeKey = makeKey
    }

    /// The key for `request`: the last one when `request` is the last request, else a new one.
    func key(for request: Request) -> String {
        if let last, last.request == request { return last.key }
        let key = makeKey()
        last = (request, key)
        return key
    }

    /// The last request was settled for good (a top-up the issuer declined after its code): the same request
    /// again is a new one, with a new key.
    func forget() {
        last = nil
    }
}
