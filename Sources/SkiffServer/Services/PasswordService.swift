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

    /// `PasswordPolicy`'s rules and not in the common-passwords list; otherwise a validation problem on `field`.
    func validate(_ password: String, field: String) throws {
        do {
            try PasswordPolicy.check(password)
        } catch {
            throw Problem.validation(field: field, error.message)
        }
        if commonPasswords.contains(password.lowercased()) {
            throw Problem.validation(field: field, PasswordPolicy.Problem.tooCommon.message)
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
