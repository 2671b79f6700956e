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

    init(cost: UInt8, commonPasswords: Set<String>) {
        self.cost = cost
        self.commonPasswords = commonPasswords
    }

    /// The contract's bounds (at most 72 code points, no control characters) on `field`, else 400; then
    /// 8–128 characters as a person counts them and not in the common-passwords list, else 422.
    func validate(_ password: String, field: String) throws {
        if password.unicodeScalars.count > Self.contractMaxLength {
            throw Problem.validation(field: field, "Use at most \(Self.contractMaxLength) characters.")
        }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Problem.validation(field: field, "A password holds no control characters.")
        }
        do {
            try PasswordPolicy.check(password)
        } catch {
            throw Problem.unprocessable([.init(field: field, message: error.message)])
        }
        if commonPasswords.contains(password.lowercased()) {
            throw Problem.unprocessable([.init(field: field, message: PasswordPolicy.Problem.tooCommon.message)])
        }
    }

    /// The `maxLength` of every new password in the contract (`openapi.yaml`).
    static let contractMaxLength = 72

    func hash(_ password: String) async throws -> String {
        let cost = cost
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
