/// One field the server (or the app) refused, and why. `field` is the app's name for it (the domain value's:
/// `amount`, `securityCode`), never the API's where they differ: the worker that made the request renames those
/// (`NetworkError.naming`).
struct FieldError: Hashable, Sendable {
    var field: String
    var message: String

    init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// Every way a call to the server can fail, as the scenes need to tell them apart.
enum NetworkError: Error, Hashable, Sendable {
    /// No connection could be made (refused, no route, the name not found, the connect timeout): the request never
    /// left, so nothing was done.
    case unreachable
    /// A connection was made and lost before the whole answer came (closed or reset after the request went): the
    /// server may have acted on it.
    case connectionLost
    /// A connection was made but no secure session: the TLS handshake failed, most often because the server's
    /// certificate is not trusted (a private authority without `--ca-file`, a self-signed or expired certificate).
    case notSecure
    /// The server took longer than the request timeout.
    case timeout
    /// The session is missing, expired or revoked (401).
    case unauthorised
    /// The session is locked (423 `session-locked`): only the password opens it again.
    case locked
    /// The server refused the input (400 / 422), with per-field reasons where it gave them.
    case validation(detail: String, fields: [FieldError])
    /// Too many attempts (429): wait this many seconds.
    case throttled(retryAfterSeconds: Int)
    /// The thing exists already (409).
    case conflict(detail: String)
    /// The first request with the same Idempotency-Key is still running (409): try again in a moment.
    case stillRunning
    /// Nothing by that id for this user (404).
    case notFound
    /// The amount needs the password proved again (403 `step-up-required`): the proof sent was spent or expired.
    case stepUpRequired
    /// The card's issuer declined the payment (402 `card-declined`); `reason` says why, in words.
    case declined(reason: String)
    /// The server answered that it did nothing this time and the same request may be sent again (503
    /// `card-network-unavailable`: the card network did not answer); `detail` says so, in words.
    case unavailable(detail: String)
    /// The server failed (5xx) or answered something the app cannot read.
    case server(status: Int, detail: String)
    /// The caller gave up (the screen went away, or Esc).
    case cancelled
    /// The app's built-in server could not start, so there is nothing to connect to.
    case serverNotStarted(reason: String)
}
