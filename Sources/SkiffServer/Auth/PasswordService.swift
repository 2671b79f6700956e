import Foundation
import HummingbirdBcrypt
import NIOConcurrencyHelpers
import NIOPosix
import SkiffCore

/// Checks password rules and hashes with bcrypt, off the request threads.
struct PasswordService: Sendable {
    let cost: UInt8
    let commonPasswords: Set<String>
    /// A hash of a random password, verified against when a number is unknown so that both answers take as
    /// long; made on first use, so that starting the server costs no bcrypt round.
    private let decoy = NIOLockedValueBox<String?>(nil)
    private let hashes = NIOLockedValueBox(0)

    /// How many bcrypt hashes this service has made, the decoy included: the proof that limits come first.
    var hashCount: Int { hashes.withLockedValue { $0 } }

    init(cost: UInt8, commonPasswords: Set<String>) {
        self.cost = cost
        self.commonPasswords = commonPasswords
    }

    /// `PasswordPolicy`'s rules and not in the common-passwords list. What the contract's schema states on
    /// `field` (8 to 72 code points, no control characters) answers 400; the rest (fewer than 8 characters as a
    /// person counts them, more than 72 bytes, a common password) answers 422.
    func validate(_ password: String, field: String) throws {
        do {
            try PasswordPolicy.check(password)
        } catch {
            let codePoints = password.unicodeScalars.count
            let breaksSchema = error == .empty || error == .controlCharacter
                || codePoints < PasswordPolicy.minimumLength || codePoints > PasswordPolicy.maximumBytes
            let refused = [Problem.FieldError(field: field, message: error.message)]
            throw breaksSchema ? Problem.validation(refused) : Problem.unprocessable(refused)
        }
        if commonPasswords.contains(password.lowercased()) {
            throw Problem.unprocessable([.init(field: field, message: PasswordPolicy.Problem.tooCommon.message)])
        }
    }

    func hash(_ password: String) async throws -> String {
        let cost = cost
        hashes.withLockedValue { $0 += 1 }
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies against `hash`, or against the decoy when there is no account, so timing tells nothing.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target: String
        if let hash {
            target = hash
        } else if let decoyHash = decoy.withLockedValue({ $0 }) {
            target = decoyHash
        } else {
            let decoyHash = try await self.hash(SessionToken.generate())
            decoy.withLockedValue { $0 = decoyHash }
            target = decoyHash
        }
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && matches
    }
}
