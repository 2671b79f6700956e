/// Every kind of problem the server answers with, each slug written once: the server names its problems with these
/// and the app recognises them by them. On the wire a problem's `type` is `urn:skiff:problem:<slug>`.
package enum ProblemType: String, CaseIterable, Sendable {
    case validation
    case badRequest = "bad-request"
    case unauthorized
    case sessionLocked = "session-locked"
    case invalidCredentials = "invalid-credentials"
    case wrongPassword = "wrong-password"
    case tooManyAttempts = "too-many-attempts"
    case codeRateLimited = "code-rate-limited"
    case codeLimitReached = "code-limit-reached"
    case codeTriesPaused = "code-tries-paused"
    case tooManyRequests = "too-many-requests"
    case invalidCode = "invalid-code"
    case codeExpired = "code-expired"
    case notFound = "not-found"
    case phoneRegistered = "phone-registered"
    case duplicateCard = "duplicate-card"
    case cardNotRemovable = "card-not-removable"
    case cardAlreadyActive = "card-already-active"
    case cardFrozen = "card-frozen"
    case idempotencyInProgress = "idempotency-in-progress"
    case idempotencyKeyReused = "idempotency-key-reused"
    case payloadTooLarge = "payload-too-large"
    case nonCanonicalPath = "non-canonical-path"
    case methodNotAllowed = "method-not-allowed"
    case amountsTooLarge = "amounts-too-large"
    case insufficientFunds = "insufficient-funds"
    case transferLimit = "transfer-limit"
    case stepUpRequired = "step-up-required"
    case cardDeclined = "card-declined"
    case cardNotUsable = "card-not-usable"
    case cardNetworkUnavailable = "card-network-unavailable"
    case topUpLimit = "top-up-limit"
    case databaseUnavailable = "database-unavailable"
    case `internal`
    /// An HTTP error the web framework raised itself; its URI carries the status (`http-<status>`).
    case http

    /// What every problem type URI starts with.
    package static let uriPrefix = "urn:skiff:problem:"

    /// `urn:skiff:problem:<slug>`; for `.http`, `urn:skiff:problem:http-<status>`.
    package func uri(status: Int) -> String {
        self == .http ? Self.uriPrefix + "http-\(status)" : Self.uriPrefix + rawValue
    }

    /// The type a problem document's `type` names; nil for a URI that is not one of Skiff's.
    package init?(uri: String) {
        guard uri.hasPrefix(Self.uriPrefix) else { return nil }
        let slug = uri.dropFirst(Self.uriPrefix.count)
        if let named = ProblemType(rawValue: String(slug)), named != .http {
            self = named
        } else if slug.hasPrefix("http-"), slug.count == 8, slug.dropFirst(5).allSatisfy(\.isNumber) {
            self = .http
        } else {
            return nil
        }
    }
}
