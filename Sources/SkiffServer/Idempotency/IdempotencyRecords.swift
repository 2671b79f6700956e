import Foundation
import SkiffCore

/// A response kept for an Idempotency-Key.
struct StoredResponse: Sendable, Equatable {
    var status: Int
    var contentType: String?
    var location: String?
    var body: Data
}

/// What `IdempotencyRepository.begin` found for a key.
enum IdempotencyBegin: Sendable, Equatable {
    /// The key is new: it is now reserved for this request.
    case started
    /// The first request with this key has not finished.
    case inFlight
    /// The key was used with another request.
    case mismatch
    /// The key was used with this request; here is its answer.
    case completed(StoredResponse)
}
