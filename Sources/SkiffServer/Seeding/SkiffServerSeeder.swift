import Foundation
import SkiffCore

/// Seeding for the `skiff-server seed-demo` and `seed` commands.
public enum SkiffServerSeeder {
    /// Brings the configured database's schema up to this binary's (on PostgreSQL under the lock every instance
    /// takes); the migrations it lacked, oldest first, empty when it was current.
    public static func migrate(_ configuration: SkiffServerConfiguration) async throws -> [String] {
        let logger = configuration.logger
        do {
            try await openRepositoryStore(configuration.database, logger: logger, migrations: .requireCurrent).close()
            return []
        } catch let lacking as PendingMigrationsError {
            try await openRepositoryStore(configuration.database, logger: logger, migrations: .apply).close()
            return lacking.pending
        }
    }

    /// Seeds the demo account (`DemoCredentials.demo`); false when it exists already.
    public static func seedDemo(_ configuration: SkiffServerConfiguration) async throws -> Bool {
        var configuration = configuration
        configuration.seedDemoDataIfEmpty = false
        let server = try await SkiffServerComponents(configuration)
        return try await server.closingStore {
            try await DemoData.seed(
                repositories: server.repositories, passwords: server.auth.passwords, key: server.key,
                clock: configuration.clock, limits: configuration.limits
            )
        }
    }

    /// What `seed` did.
    public struct Summary: Sendable {
        public var userID: String
        public var createdUser: Bool
        public var transactions: Int
        /// The user's balance after, in minor units of `currency`: what their statement adds up to.
        public var balanceMinor: Int64
        public var currency: String
        /// The password made for a new user when none was given, to be shown once; nil otherwise.
        public var generatedPassword: String?
    }

    /// Creates the user when the number has no account (with an issued card and opening balance), then
    /// adds `transactions` generated transactions over the last year in one database transaction, through the ledger
    /// (`DemoData.insertTransactions`), so the balance is what the statement adds up to. A new user gets
    /// `password`, or without one a generated password returned in the summary: never a published default.
    public static func seed(
        _ configuration: SkiffServerConfiguration, countryCode: String, phoneNumber: String, fullName: String,
        password: String?, transactions: Int
    ) async throws -> Summary {
        var configuration = configuration
        configuration.seedDemoDataIfEmpty = false
        let server = try await SkiffServerComponents(configuration)
        return try await server.closingStore {
            try await seed(
                server, countryCode: countryCode, phoneNumber: phoneNumber, fullName: fullName, password: password,
                transactions: transactions
            )
        }
    }

    private static func seed(
        _ server: SkiffServerComponents, countryCode: String, phoneNumber: String, fullName: String, password: String?,
        transactions: Int
    ) async throws -> Summary {
        let configuration = server.configuration
        let phone = try PhoneNumber.parse(countryCode: countryCode, number: phoneNumber)
        let now = configuration.clock.now()
        var created = false
        var generatedPassword: String?
        let user: UserRecord
        if let existing = try await server.repositories.accounts.user(phone: phone.e164) {
            user = existing
        } else {
            let name = try FullName.validate(fullName)
            let password = password ?? {
                var generator = SystemRandomNumberGenerator()
                let made = Data((0..<18).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncodedString()
                generatedPassword = made
                return made
            }()
            let account = NewAccount.opening(
                userID: UUID().uuidString.lowercased(), phone: phone.e164, countryCode: phone.countryCode,
                nationalNumber: phone.nationalNumber, fullName: name, passwordHash: try await server.auth.passwords.hash(password),
                limits: configuration.limits, key: server.key, now: now, openingBalanceAt: now.addingTimeInterval(-366 * 86_400)
            )
            try await server.repositories.accounts.create(account)
            user = account.user
            created = true
        }
        let balance = try await DemoData.insertTransactions(
            repositories: server.repositories, userID: user.id, count: transactions, endingAt: now, span: 365 * 86_400,
            currency: user.currency, seed: UInt64(UInt32(truncatingIfNeeded: now.millisecondsSince1970))
        )
        return Summary(
            userID: user.id, createdUser: created, transactions: transactions, balanceMinor: balance, currency: user.currency,
            generatedPassword: generatedPassword
        )
    }
}

extension SkiffServerSeeder {
    /// One user made by `seedUsers`, with a session opened for a load test.
    public struct LoadUser: Sendable, Codable {
        public var userId: String
        public var phone: String
        public var token: String
    }

    /// Makes `count` users (or finds them) with consecutive +1 numbers from `firstNumber`, all with `password` and
    /// the opening balance, and opens a session for each: for load tests and the bank test, which would otherwise
    /// wait on the sign-in rate limits. Sessions last `sessionLifetime` and lock after `sessionLockAfter` unused.
    public static func seedUsers(
        _ configuration: SkiffServerConfiguration, count: Int, firstNumber: Int64, password: String
    ) async throws -> [LoadUser] {
        var configuration = configuration
        configuration.seedDemoDataIfEmpty = false
        let server = try await SkiffServerComponents(configuration)
        return try await server.closingStore {
            let limits = configuration.limits
            let now = configuration.clock.now()
            let passwordHash = try await server.auth.passwords.hash(password)
            var users: [LoadUser] = []
            for index in 0..<count {
                let phone = try PhoneNumber.parse(countryCode: "+1", number: String(firstNumber + Int64(index)))
                let userID: String
                if let existing = try await server.repositories.accounts.user(phone: phone.e164) {
                    userID = existing.id
                } else {
                    let account = NewAccount.opening(
                        userID: UUID().uuidString.lowercased(), phone: phone.e164, countryCode: phone.countryCode,
                        nationalNumber: phone.nationalNumber, fullName: "Load User \(index + 1)", passwordHash: passwordHash,
                        limits: limits, key: server.key, now: now
                    )
                    try await server.repositories.accounts.create(account)
                    userID = account.user.id
                }
                let token = SessionToken.generate()
                try await server.repositories.sessions.create(SessionRecord(
                    tokenHash: SessionToken.hash(token), userID: userID, createdAt: now, lastUsedAt: now,
                    expiresAt: now.addingTimeInterval(limits.sessionLifetime)
                ))
                users.append(LoadUser(userId: userID, phone: phone.e164, token: token))
            }
            return users
        }
    }
}

extension SkiffServerComponents {
    /// Runs `work`, then closes the database whether it succeeded or not.
    fileprivate func closingStore<Value: Sendable>(_ work: () async throws -> Value) async throws -> Value {
        do {
            let value = try await work()
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }
}
