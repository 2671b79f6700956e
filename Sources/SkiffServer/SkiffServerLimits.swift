import Foundation
import SkiffCore

/// The numbers behind the security rules. The defaults are the product's rules; tests keep them.
public struct SkiffServerLimits: Sendable {
    /// A session ends this long after login, however active (12 h).
    var sessionLifetime: TimeInterval = 12 * 3600
    /// A session ends after this long without a request (30 min).
    var sessionIdleTimeout: TimeInterval = 30 * 60
    /// A session is locked after this long without a request (5 min): until its password is given again
    /// (`POST /v1/session/unlock`) it answers only unlock, lock and logout.
    var sessionLockAfter: TimeInterval = 5 * 60
    /// Use of a session is written at most this often, to spare the database a write per request; idle times
    /// count from the use last written, so they may end up to this much early.
    var sessionTouchInterval: TimeInterval = 60
    /// A one-time code is good for 10 minutes.
    var codeLifetime: TimeInterval = 10 * 60
    /// Wrong tries that kill a code.
    var codeMaxAttempts = 5
    /// At most one new code per number in this time.
    public var codeResendInterval: TimeInterval = 30
    /// Consecutive failed sign-ins before the number is paused.
    public var loginFailuresBeforeLockout = 5
    /// The first pause; it doubles with every further failure.
    var loginFirstLockout: TimeInterval = 30
    /// The longest pause (15 min).
    var loginMaxLockout: TimeInterval = 15 * 60
    /// How long a response is kept for its Idempotency-Key.
    var idempotencyRetention: TimeInterval = 24 * 3600
    /// The opening balance of a new account, in minor units.
    var openingBalanceMinor: Int64 = 100_000
    /// The currency of new accounts.
    public var currency = "USD"
    /// The most one transfer may send, in minor units ($2,000.00).
    public var transferMaxMinor: Int64 = TransferRules.transferMaxMinor
    /// The most one wallet may send in transfers in a UTC day, in minor units ($5,000.00); the operator's to set.
    public var dailyTransferLimitMinor: Int64 = 500_000
    /// The most one top-up may add from a card, in minor units ($10,000.00).
    public var topUpMaxMinor: Int64 = 1_000_000
    /// Top-ups per rolling 24 hours, per account and per card (on any account): 10 and $10,000.00 per account, 5 and
    /// $10,000.00 per card by default; the operator's to set (`--top-up-limits`).
    public var topUpVelocity = TopUpVelocity()
    /// How long a step-up proof of the password is good for (5 min), for one transfer.
    var stepUpLifetime: TimeInterval = 5 * 60
    /// Recipient lookups one user may make in any `recipientLookupWindow`: lookups reveal who has an account.
    public var recipientLookupsPerHour = 30
    /// The window recipient lookups are counted in (an hour).
    var recipientLookupWindow: TimeInterval = 3600

    /// Codes sent to one number in any hour: a person who mistypes or loses a few texts still gets in.
    public var codesPerNumberPerHour = 5
    /// Codes sent to one number in any 24 hours: nobody can make the server text a number without end.
    public var codesPerNumberPerDay = 10
    /// Wrong tries at all the codes of one number in any 24 hours: fresh codes cannot buy fresh guesses.
    public var wrongCodesPerNumberPerDay = 20
    /// Codes asked for from one client address in any hour, whatever the numbers.
    public var codesPerAddressPerHour = 20
    /// How often the purge deletes what no rule reads any more (`PurgeService`).
    var purgeInterval: TimeInterval = 10 * 60
    /// Rows one purge statement deletes at most, so no write holds the database long.
    var purgeBatchSize = 1000
    /// Codes sent to the numbers of one country code in any hour, counted in the database across instances: a
    /// burst of registrations to one country's numbers (SMS pumping through premium-rate ranges) stops here, at a
    /// cost of a pause for that country's new codes until the hour has passed.
    var codesPerCountryPerHour = 1_000
    /// Requests to `/v1/auth/` one client address may make at once (the token bucket's size).
    public var authRequestBurst = 20
    /// One more `/v1/auth/` request is allowed per client address this often (the bucket's refill).
    var authRequestRefillInterval: TimeInterval = 3

    /// A new connection must send its first request's head whole within this time (a TLS handshake included), or
    /// it is closed: clients that connect and send headers slowly or never (slowloris) cannot hold sockets.
    var requestHeadTimeout: TimeInterval = 10
    /// A request's body (64 KiB at most) must have arrived whole this long after its head.
    var requestBodyTimeout: TimeInterval = 30
    /// A connection that sends nothing while no answer is being written is closed after this time: a kept-alive
    /// connection between requests, or one sending a later request's head slowly.
    var connectionIdleTimeout: TimeInterval = 60
    /// Connections open at once; past it, new ones wait in the listen backlog until one closes.
    var maxConnections = 512
    /// Connections open at once from one client address (an IPv6 /64), trusted proxies aside: one client cannot keep
    /// everyone else's requests in the backlog.
    var connectionsPerAddress = 32
    /// How long a live event is kept for a stream that reconnects with `Last-Event-ID` (`GET /v1/events`).
    var eventRetention: TimeInterval = 24 * 3600
    /// Open event streams per user (several devices), and per server: at most half of `maxConnections`, so that
    /// streams never keep ordinary requests out.
    var eventStreamsPerUser = 5
    var eventStreamsPerServer = 256
    /// Open event streams from one client address, whatever the users: many accounts on one client cannot fill the
    /// server's streams.
    var eventStreamsPerAddress = 16
    /// A comment on an idle stream this often keeps it (and any proxy's connection) open; the stream's session is
    /// also checked then, when its idle lock is due.
    var eventKeepAliveInterval: TimeInterval = 30
    /// A stream ends after this long (the client reconnects with `Last-Event-ID`).
    var eventStreamLifetime: TimeInterval = 30 * 60
    /// The `retry:` hint sent first on every stream, and the shorter one sent when the server shuts down (ms).
    var eventRetryMilliseconds: Int64 = 3000
    var eventShutdownRetryMilliseconds: Int64 = 1000
    /// After SIGTERM (or SIGINT) the server accepts nothing new and lets the requests in flight finish for at most
    /// this long; what is still running then is cancelled and the process exits.
    public var shutdownGracePeriod: Duration = .seconds(10)

    public init() {}
}

/// How much may come in from cards in any 24 hours (`SkiffServerLimits.topUpVelocity`).
public struct TopUpVelocity: Sendable, Equatable {
    public struct Limit: Sendable, Equatable {
        /// Top-ups started and not declined.
        public var count: Int
        /// Their amounts together, in minor units.
        public var amountMinor: Int64

        public init(count: Int, amountMinor: Int64) {
            self.count = count
            self.amountMinor = amountMinor
        }
    }

    public var perAccount = Limit(count: 10, amountMinor: 1_000_000)
    public var perCard = Limit(count: 5, amountMinor: 1_000_000)

    public init() {}
}
