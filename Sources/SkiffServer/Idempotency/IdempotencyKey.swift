import SkiffAPI

/// The `Idempotency-Key` of the current request, set by `IdempotencyMiddleware` for the operation's handler as
/// `Caller` is: checked against the contract's pattern, with the strategy the contract names for the operation
/// (`SkiffContract.idempotencyStrategies`, decision 0191). A handler hands it to its service as a parameter.
struct IdempotencyKey: Sendable, Equatable {
    /// The key exactly as sent. The generated handler's header value is percent-decoded ("a%20b" arrives as "a b"),
    /// so it is not what the contract's pattern describes; this is.
    var value: String
    /// The keyed hash of the request (`IdempotencyFingerprint`) the key is held to: set for a stored answer and the
    /// ledger; nil for a code replay, which binds the key to the code instead (`OneTimeCodeService.consume`).
    var requestHash: String?
    var strategy: IdempotencyStrategy

    @TaskLocal static var current: IdempotencyKey?

    /// The current request's key, or 400 naming the header when it sent none.
    static func required() throws -> IdempotencyKey {
        guard let current else {
            throw Problem.validation(field: OpenAPIOperations.idempotencyKeyHeader, "Send an Idempotency-Key header.")
        }
        return current
    }

    /// `requestHash`, which every strategy but a code replay has; a 500 without one.
    func heldRequestHash() throws -> String {
        guard let requestHash else { throw Problem.internalError }
        return requestHash
    }
}
