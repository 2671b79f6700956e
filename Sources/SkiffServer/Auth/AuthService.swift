import Foundation
import Logging
import SkiffCore

/// Registration, sign-in, sign-out and password reset.
struct AuthService: Sendable {
    let accounts: any AccountRepository
    let sessions: SessionService
    /// Where step-up proofs are kept.
    let stepUps: any LedgerRepository
    let throttle: LoginThrottle
    let codes: OneTimeCodeService
    let passwords: PasswordService
    let key: ServerKey
    let clock: any ServerClock
    let limits: SkiffServerLimits
    let logger: Logger

    /// A signed-in user and the token to return once.
    struct SignedIn: Sendable {
        var token: String
        var expiresAt: Date
        var user: UserRecord
    }

    /// What a registration keeps until its code is confirmed.
    private struct PendingRegistration: Codable {
        var countryCode: String
        var nationalNumber: String
        var fullName: String
        var passwordHash: String
    }

    /// Checks the form, then the code limits, and only then hashes the password: a refused request costs no bcrypt.
    func register(
        countryCode: String, phoneNumber: String, fullName: String, password: String, clientAddress: String
    ) async throws -> OneTimeCodeService.Challenge {
        var problems = FieldProblems()
        let phone = Self.phone(countryCode: countryCode, number: phoneNumber, problems: &problems)
        var name = ""
        do { name = try FullName.validate(fullName) } catch {
            problems.schema("fullName", error.message)
        }
        do { try passwords.validate(password, field: "password") } catch let problem as Problem {
            problems.add(problem)
        }
        try problems.check()
        guard let phone else { throw Problem.internalError }
        try await codes.checkLimits(
            phone: phone.e164, purpose: .registration, countryCode: phone.countryCode, address: clientAddress
        )
        let pending = PendingRegistration(
            countryCode: phone.countryCode, nationalNumber: phone.nationalNumber, fullName: name,
            passwordHash: try await passwords.hash(password)
        )
        return try await codes.issue(
            phone: phone.e164, countryCode: phone.countryCode, purpose: .registration, userID: nil, address: clientAddress,
            payload: try JSONEncoder().encode(pending)
        )
    }

    /// Confirms a registration code and creates the account: user, an inactive issued card, the opening
    /// balance and a welcome notification. The account takes the verification's id, so the same request sent again
    /// with its Idempotency-Key (its answer was lost) finds the account its first try created, or creates it when
    /// that try stopped short, and signs in again.
    func verifyRegistration(
        verificationID: String, code: String, idempotencyKey: IdempotencyKey? = nil
    ) async throws -> SignedIn {
        try Self.validateCode(code)
        let accepted = try await codes.consume(
            id: verificationID, code: code, purpose: .registration, replayKey: idempotencyKey?.value
        )
        let user: UserRecord
        if accepted.replayed, let created = try await accounts.user(id: accepted.record.id) {
            user = created
        } else {
            user = try await createAccount(for: accepted.record)
        }
        let opened = try await sessions.open(userID: user.id)
        return SignedIn(token: opened.token, expiresAt: opened.session.expiresAt, user: user)
    }

    private func createAccount(for record: VerificationRecord) async throws -> UserRecord {
        guard let payload = record.payload,
              let pending = try? JSONDecoder().decode(PendingRegistration.self, from: payload)
        else { throw Problem.codeExpired }
        let now = clock.now()
        let userID = record.id
        let account = NewAccount.opening(
            userID: userID, phone: record.phone, countryCode: pending.countryCode,
            nationalNumber: pending.nationalNumber, fullName: pending.fullName, passwordHash: pending.passwordHash,
            limits: limits, key: key, now: now
        )
        do {
            try await accounts.create(account)
        } catch RepositoryError.duplicate {
            // A replay racing another replay of the same request finds the account it created.
            if let created = try await accounts.user(id: userID) { return created }
            throw Problem.phoneRegistered
        }
        logger.info("account created", metadata: ["user": "\(userID)"])
        return account.user
    }

    /// The same answer for an unknown number and a wrong password; paused after repeated failures.
    func login(countryCode: String, phoneNumber: String, password: String) async throws -> SignedIn {
        var problems = FieldProblems()
        let phone = Self.phone(countryCode: countryCode, number: phoneNumber, problems: &problems)
        if password.isEmpty { problems.schema("password", PasswordPolicy.Problem.empty.message) }
        try problems.check()
        guard let phone else { throw Problem.internalError }
        try await throttle.beginAttempt(.number(phone.e164))
        let user = try await accounts.user(phone: phone.e164)
        guard try await passwords.verify(password, hash: user?.passwordHash), let user else {
            logger.info("sign-in refused")
            throw Problem.invalidCredentials
        }
        try await throttle.recordSuccess(.number(phone.e164))
        let opened = try await sessions.open(userID: user.id)
        logger.info("signed in", metadata: ["user": "\(user.id)"])
        return SignedIn(token: opened.token, expiresAt: opened.session.expiresAt, user: user)
    }

    /// Checks the signed-in user's password again, through a throttle of the user's own (failed sign-ins on the
    /// number, anyone's, never pause it), and lifts the session's lock.
    func unlock(userID: String, tokenHash: String, password: String) async throws {
        try await checkPassword(userID: userID, password: password, for: .unlock)
        try await sessions.unlock(tokenHash: tokenHash)
    }

    /// A proof of the password for one transfer of this session (`TransferService`), good for `stepUpLifetime`.
    /// The password is counted on the user's own throttle, with unlock's: strangers' failed sign-ins on the number
    /// never pause it, and a thief holding the token is paused there (docs/decisions/0201-strangers-counted-apart.md).
    func stepUp(
        userID: String, tokenHash: String, password: String, for transfer: StepUpTarget
    ) async throws -> (token: String, expiresAt: Date) {
        guard transfer.amountMinor > 0 else { throw Problem.validation(field: "amountMinor", TransferRules.Problem.amountNotPositive.message) }
        try await checkPassword(userID: userID, password: password, for: .stepUp)
        let token = SessionToken.generate()
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(limits.stepUpLifetime)
        try await stepUps.createStepUp(StepUpRecord(
            tokenHash: SessionToken.hash(token), sessionTokenHash: tokenHash, userID: userID,
            payeeUserID: transfer.payeeUserID, amountMinor: transfer.amountMinor, createdAt: now, expiresAt: expiresAt
        ))
        return (token, expiresAt)
    }

    /// Why a signed-in user's password is checked again, and so which throttle counts it.
    private enum PasswordCheck: String {
        case unlock
        case stepUp = "step-up"

        /// Both on the user's own throttle: failed sign-ins on the number, anyone's, never pause them (issue 45).
        func throttleSubject(_ user: UserRecord) -> LoginThrottle.Subject {
            .unlock(userID: user.id)
        }
    }

    /// The signed-in user's password checked again, counted on the throttle of `purpose`.
    private func checkPassword(userID: String, password: String, for purpose: PasswordCheck) async throws {
        if password.isEmpty { throw Problem.validation(field: "password", PasswordPolicy.Problem.empty.message) }
        guard let user = try await accounts.user(id: userID) else { throw Problem.unauthorized }
        let subject = purpose.throttleSubject(user)
        try await throttle.beginAttempt(subject)
        guard try await passwords.verify(password, hash: user.passwordHash) else {
            logger.info("\(purpose.rawValue) refused", metadata: ["user": "\(user.id)"])
            throw Problem.wrongPassword
        }
        try await throttle.recordSuccess(subject)
    }

    /// Locks the session until `unlock`.
    func lock(tokenHash: String) async throws {
        try await sessions.lock(tokenHash: tokenHash)
    }

    func logout(tokenHash: String) async throws {
        try await sessions.revoke(tokenHash: tokenHash)
    }

    /// Answers alike whether or not the number has an account; only an account's number gets a code.
    func forgotPassword(countryCode: String, phoneNumber: String, clientAddress: String) async throws
        -> OneTimeCodeService.Challenge
    {
        var problems = FieldProblems()
        let phone = Self.phone(countryCode: countryCode, number: phoneNumber, problems: &problems)
        try problems.check()
        guard let phone else { throw Problem.internalError }
        let user = try await accounts.user(phone: phone.e164)
        return try await codes.issue(
            phone: phone.e164, countryCode: phone.countryCode, purpose: .passwordReset, userID: user?.id,
            address: clientAddress, send: user != nil
        )
    }

    /// Sets the new password, revokes every session of the user and ends the replay of the user's earlier codes.
    /// The same request sent again with its Idempotency-Key (its answer was lost) sets the same password again:
    /// the code's replay is bound to the new password's keyed hash, so it is never answered from a password
    /// check, and another password needs a new code.
    func resetPassword(
        verificationID: String, code: String, newPassword: String, idempotencyKey: IdempotencyKey? = nil
    ) async throws {
        var problems = FieldProblems()
        do { try Self.validateCode(code) } catch let problem as Problem { problems.add(problem) }
        do { try passwords.validate(newPassword, field: "newPassword") } catch let problem as Problem {
            problems.add(problem)
        }
        try problems.check()
        let accepted = try await codes.consume(
            id: verificationID, code: code, purpose: .passwordReset, replayKey: idempotencyKey?.value,
            replayBinding: key.mac("reset-password", newPassword)
        )
        let record = accepted.record
        guard let userID = record.userID else { throw Problem.codeExpired }
        try await accounts.resetPassword(
            userID: userID, passwordHash: try await passwords.hash(newPassword), at: clock.now(),
            keepingReplayOf: record.id
        )
        sessions.forgetSessions(userID: userID)
        try await throttle.recordSuccess(.number(record.phone))
        logger.info(accepted.replayed ? "password reset replayed" : "password reset", metadata: ["user": "\(userID)"])
    }

    /// Parses a phone number, adding a field problem when it is not valid: one the contract's patterns state,
    /// or, for a number that matches them, its country's numbering (422).
    static func phone(countryCode: String, number: String, problems: inout FieldProblems) -> PhoneNumber? {
        do {
            return try PhoneNumber.parse(countryCode: countryCode, number: number)
        } catch {
            switch error {
            case .emptyCountryCode, .invalidCountryCode: problems.schema("countryCode", error.message)
            case .empty, .invalidCharacters: problems.schema("phoneNumber", error.message)
            case .wrongLength, .invalidForCountry: problems.rule("phoneNumber", error.message)
            }
            return nil
        }
    }

    static func validateCode(_ code: String) throws {
        do { try OneTimeCode.validate(code) } catch { throw Problem.validation(field: "code", error.message) }
    }
}

/// The transfer a step-up proof is asked for: whom it pays and how much.
struct StepUpTarget: Sendable, Equatable {
    var payeeUserID: String
    var amountMinor: Int64
}
