import Foundation
import HTTPTypes
import SkiffAPI

/// An error that answers the request as an RFC 9457 problem document (`application/problem+json`).
///
/// Handlers and middleware throw these; `ProblemMiddleware` renders them. Nothing else reaches a response:
/// any other error becomes a bare 500 problem.
struct Problem: Error, Sendable, Equatable {
    /// One invalid input of a validation problem.
    struct FieldError: Codable, Sendable, Equatable {
        var field: String
        var message: String
    }

    var status: HTTPResponse.Status
    /// What kind of problem it is: its type URI, from the one list of them.
    var kind: ProblemType
    var title: String
    var detail: String?
    var errors: [FieldError] = []
    var retryAfterSeconds: Int?
    /// The methods the path answers, sent as `Allow` (405 only).
    var allowedMethods: [String] = []

    /// `urn:skiff:problem:<slug>`.
    var type: String { kind.uri(status: Int(status.code)) }
}

extension Problem {
    static func validation(_ errors: [FieldError]) -> Problem {
        Problem(
            status: .badRequest, kind: .validation, title: "Some fields are not valid.",
            detail: "Correct the fields listed in errors and try again.", errors: errors
        )
    }

    static func validation(field: String, _ message: String) -> Problem {
        validation([FieldError(field: field, message: message)])
    }

    /// Values that the contract's schemas allow but that break a rule it states only in words (a check digit,
    /// a number's length for its country, an expiry in the past, a common password): 422, where 400 means the
    /// request breaks the schema itself.
    static func unprocessable(_ errors: [FieldError]) -> Problem {
        Problem(
            status: .unprocessableContent, kind: .validation, title: "Some fields are not valid.",
            detail: "Correct the fields listed in errors and try again.", errors: errors
        )
    }

    static func badRequest(_ detail: String, errors: [FieldError] = []) -> Problem {
        Problem(status: .badRequest, kind: .badRequest, title: "The request is not valid.", detail: detail, errors: errors)
    }

    static let unauthorized = Problem(
        status: .unauthorized, kind: .unauthorized, title: "Sign in to continue.",
        detail: "The session token is missing, expired or revoked."
    )

    /// 423, not 401: the session is not gone, and a client that reads every 401 as "signed out" (and forgets the
    /// token, as Skiff's did) must not forget the token that the password will open again.
    static let sessionLocked = Problem(
        status: HTTPResponse.Status(code: 423, reasonPhrase: "Locked"), kind: .sessionLocked,
        title: "This session is locked.",
        detail: "Unlock it with the password (POST /v1/session/unlock), or log out."
    )

    static let invalidCredentials = Problem(
        status: .unauthorized, kind: .invalidCredentials, title: "The phone number or password is not right.",
        detail: "Check the phone number and password and try again."
    )

    static let wrongPassword = Problem(
        status: .unprocessableContent, kind: .wrongPassword, title: "The password is not right.",
        detail: "Check the password and try again.",
        errors: [FieldError(field: "password", message: "The password is not right.")]
    )

    static func tooManyAttempts(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .tooManyAttempts, title: "Too many failed attempts.",
            detail: "Sign-in is paused for this number. Try again in \(seconds) seconds.", retryAfterSeconds: seconds
        )
    }

    static func codeRateLimited(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .codeRateLimited, title: "A code was sent moments ago.",
            detail: "Wait \(seconds) seconds before asking for another code.", retryAfterSeconds: seconds
        )
    }

    static func invalidCode(attemptsLeft: Int) -> Problem {
        Problem(
            status: .unprocessableContent, kind: .invalidCode, title: "The code is not right.",
            detail: "Check the code and try again (\(attemptsLeft) \(attemptsLeft == 1 ? "try" : "tries") left).",
            errors: [FieldError(field: "code", message: "The code is not right.")]
        )
    }

    static let codeExpired = Problem(
        status: .unprocessableContent, kind: .codeExpired, title: "This code is no longer valid.",
        detail: "The code has expired, was already used, or was entered wrongly too often. Ask for a new one."
    )

    static let notFound = Problem(
        status: .notFound, kind: .notFound, title: "Not found.", detail: "There is nothing at this address."
    )

    static let phoneRegistered = Problem(
        status: .conflict, kind: .phoneRegistered, title: "This number already has an account.",
        detail: "Sign in, or reset the password if it is forgotten."
    )

    static let insufficientFunds = Problem(
        status: .unprocessableContent, kind: .insufficientFunds, title: "There is not enough money in the wallet.",
        detail: "The amount is more than the balance.",
        errors: [FieldError(field: "amountMinor", message: "The amount is more than the balance.")]
    )

    static func transferLimit(_ message: String) -> Problem {
        Problem(
            status: .unprocessableContent, kind: .transferLimit, title: "The amount is over a limit.", detail: message,
            errors: [FieldError(field: "amountMinor", message: message)]
        )
    }

    static let stepUpRequired = Problem(
        status: .forbidden, kind: .stepUpRequired, title: "Confirm with the password.",
        detail: "Amounts above the step-up amount need a fresh proof of the password (POST /v1/session/step-up), sent as stepUpToken once."
    )

    /// 402: the card's issuer declined a top-up; `reason` says why in words.
    static func cardDeclined(_ reason: String, field: String = "cardId") -> Problem {
        Problem(
            status: HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), kind: .cardDeclined,
            title: "The card was declined.", detail: reason, errors: [FieldError(field: field, message: reason)]
        )
    }

    /// 422: the top-ups of the last 24 hours, from this account or from this card on any account, reach a limit.
    static func topUpLimit(_ message: String) -> Problem {
        Problem(
            status: .unprocessableContent, kind: .topUpLimit, title: "That is more than can be added today.",
            detail: message, errors: [FieldError(field: "amountMinor", message: message)]
        )
    }

    /// 422: the card exists and is the caller's, but money cannot come from it (frozen, expired, the Skiff card).
    static func cardNotUsable(_ message: String) -> Problem {
        Problem(
            status: .unprocessableContent, kind: .cardNotUsable, title: "This card cannot be used to top up.",
            detail: message, errors: [FieldError(field: "cardId", message: message)]
        )
    }

    /// 503: the card network did not answer in time. Nothing was written; the same request may be sent again.
    static let cardNetworkUnavailable = Problem(
        status: .serviceUnavailable, kind: .cardNetworkUnavailable, title: "The card network did not answer.",
        detail: "Nothing was added. Send the same request again, with the same Idempotency-Key, in a moment."
    )

    /// 503: no database server takes requests now (a failover is under way). Nothing was done, or a write's outcome
    /// is unknown: the same request with the same Idempotency-Key is done at most once.
    static let databaseUnavailable = Problem(
        status: .serviceUnavailable, kind: .databaseUnavailable, title: "The database is not available right now.",
        detail: "Send the same request again, with the same Idempotency-Key, in a moment: it is done at most once.",
        retryAfterSeconds: 2
    )

    static let noRecipient = Problem(
        status: .notFound, kind: .notFound, title: "Nobody has this number.",
        detail: "No Skiff account has this phone number.",
        errors: [FieldError(field: "phoneNumber", message: "No Skiff account has this number.")]
    )

    static func tooManyLookups(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, kind: .tooManyRequests, title: "Too many lookups.",
            detail: "Look up fewer numbers: try again in \(seconds) seconds.", retryAfterSeconds: seconds
        )
    }

    static let duplicateCard = Problem(
        status: .conflict, kind: .duplicateCard, title: "This card is already added.",
        detail: "A card with this number is already on the account."
    )

    /// 409: a card sits on one account at most, so a stolen card cannot be spread over many.
    static let cardOnAnotherAccount = Problem(
        status: .conflict, kind: .duplicateCard, title: "This card is on another account.",
        detail: "A card can be on one Skiff account only. Remove it from the other account first."
    )

    static let cardNotRemovable = Problem(
        status: .conflict, kind: .cardNotRemovable, title: "This card cannot be removed.",
        detail: "Only external cards can be removed; the card issued by Skiff stays on the account."
    )

    static let cardAlreadyActive = Problem(
        status: .conflict, kind: .cardAlreadyActive, title: "This card needs no activation.",
        detail: "Only an inactive issued card can be activated."
    )

    static let cardFrozen = Problem(
        status: .conflict, kind: .cardFrozen, title: "This card is frozen.",
        detail: "Unfreeze the card before activating it."
    )

    static let idempotencyInProgress = Problem(
        status: .conflict, kind: .idempotencyInProgress, title: "The first request with this key is still running.",
        detail: "Retry with the same Idempotency-Key once it has finished."
    )

    static let idempotencyMismatch = Problem(
        status: .unprocessableContent, kind: .idempotencyKeyReused, title: "This Idempotency-Key was used for another request.",
        detail: "Use a new Idempotency-Key for a different request body."
    )

    static func payloadTooLarge(limit: Int) -> Problem {
        Problem(
            status: .contentTooLarge, kind: .payloadTooLarge, title: "The request body is too large.",
            detail: "Send at most \(limit / 1024) KiB."
        )
    }

    static let nonCanonicalPath = Problem(
        status: .badRequest, kind: .nonCanonicalPath, title: "This address is not written in its plain form.",
        detail: "Send the path without empty, '.' or '..' segments, encoded '/', '.' or '\\', or a trailing '/'."
    )

    /// 422: the contract's schemas allow any character in most texts; that none takes NUL is a rule in words.
    static func nulCharacter(field: String) -> Problem {
        unprocessable([FieldError(field: field, message: "This field holds a NUL character (\\u0000), which no text takes.")])
    }

    /// 400: a number with a fraction or an exponent (`100.5`, `100.00`, `1e2`), or past 64 bits, where every field
    /// takes a whole number in digits.
    static func notWholeNumber(field: String) -> Problem {
        validation(field: field, "This field takes a whole number in digits, with no point or exponent: amounts are in cents (1250 for $12.50).")
    }

    /// 400: an object naming one key twice, which the decoders would read differently (the first value, the last).
    static func repeatedKey(field: String) -> Problem {
        validation(field: field, "This field is given more than once: send it once.")
    }

    static func methodNotAllowed(allowed: [String]) -> Problem {
        Problem(
            status: .methodNotAllowed, kind: .methodNotAllowed, title: "This address does not take that method.",
            detail: "Use one of: \(allowed.joined(separator: ", ")).", allowedMethods: allowed
        )
    }

    /// A total of stored amounts that does not fit in 64-bit minor units: the data, not the request, is at fault.
    static let amountsTooLarge = Problem(
        status: .internalServerError, kind: .amountsTooLarge, title: "The amounts are too large to add.",
        detail: "A total of these amounts does not fit in the range amounts are kept in."
    )

    static let internalError = Problem(
        status: .internalServerError, kind: .internal, title: "Something went wrong on the server.",
        detail: "The request could not be completed. Try again later."
    )
}

/// The invalid fields of one request, in the order they were checked: thrown as a 400 validation problem when
/// any breaks the contract's schema, else as 422 when they only break rules the contract states in words.
struct FieldProblems {
    private(set) var errors: [Problem.FieldError] = []
    private var breaksSchema = false

    /// A value the contract's schema refuses.
    mutating func schema(_ field: String, _ message: String) {
        errors.append(.init(field: field, message: message))
        breaksSchema = true
    }

    /// A value the schema allows that breaks a rule stated in words.
    mutating func rule(_ field: String, _ message: String) {
        errors.append(.init(field: field, message: message))
    }

    /// Adds the fields of a thrown validation problem, keeping its status's meaning.
    mutating func add(_ problem: Problem) {
        errors += problem.errors
        if problem.status != .unprocessableContent { breaksSchema = true }
    }

    func check() throws {
        guard !errors.isEmpty else { return }
        throw breaksSchema ? Problem.validation(errors) : Problem.unprocessable(errors)
    }
}
