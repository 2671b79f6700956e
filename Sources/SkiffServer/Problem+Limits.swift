import Foundation
import SkiffAPI

extension Problem {
    static func codeLimitReached(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .codeLimitReached, title: "Too many codes were asked for.",
            detail: "No more codes can be sent to this number or its country, or asked for from this network, for now. "
                + "Try again in \(seconds) seconds.",
            retryAfterSeconds: seconds
        )
    }

    static func codeTriesPaused(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .codeTriesPaused, title: "Too many wrong codes for this number.",
            detail: "Codes for this number cannot be checked for now. Try again in \(seconds) seconds.",
            retryAfterSeconds: seconds
        )
    }

    static func authRequestsLimited(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .tooManyRequests, title: "Too many requests from this address.",
            detail: "Slow down: try again in \(seconds) seconds.", retryAfterSeconds: seconds
        )
    }

    /// Whole seconds from `now` until `date`, at least 1: the value of a `Retry-After`.
    static func secondsUntil(_ date: Date, from now: Date) -> Int {
        max(1, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}

extension Problem {
    /// Too many open event streams, the user's or the server's (`GET /v1/events`).
    static func eventStreamsLimited(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .tooManyRequests, title: "Too many open event streams.",
            detail: "Close another stream, or try again in \(seconds) seconds.", retryAfterSeconds: seconds
        )
    }
}
